// A first hour that is not empty: who to follow (one click, or dismiss for good) and
// what is trending, on the home page of someone who follows few people yet.

import { api } from "./api.js";
import { avatar, h, plural, profileHref } from "./dom.js";
import { postCard } from "./post.js";
import { followButton } from "./relations.js";
import { attempt } from "./status.js";

const FEW = 5; // follow fewer than this, and home shows who to follow

function why(person) {
  return person.reason === "followed_by"
    ? `Followed by ${plural(person.followed_by, "person", "people")} you follow`
    : "Popular lately";
}

function suggestionRow(person, heading) {
  const name = person.name || person.username;
  const dismiss = h("button", { type: "button", class: "secondary", "aria-label": `Dismiss ${name}`, title: "Not interested: never suggest again" }, "Dismiss");
  const row = h(
    "li",
    { class: "person", dataset: { userId: person.id } },
    h("a", { href: profileHref(person.username), class: "avatar-link", tabindex: "-1", "aria-hidden": "true" }, avatar(person)),
    h("div", { class: "who" }, h("a", { href: profileHref(person.username), class: "name" }, name), h("span", { class: "handle" }, `@${person.username}`), h("span", { class: "hint" }, why(person))),
    h("div", { class: "row" }, followButton(person), dismiss),
  );
  dismiss.addEventListener("click", async () => {
    const done = await attempt(() => api("DELETE", `/v1/users/suggestions/${person.id}`));
    if (done === undefined) return;
    // The focused row leaves: focus goes to the next one's first button, or the heading.
    const next = row.nextElementSibling || row.previousElementSibling;
    row.remove();
    (next ? next.querySelector("button") : heading).focus();
  });
  return row;
}

/** "Who to follow", or null when there is nobody to suggest. */
export async function whoToFollow(me) {
  if (me.following >= FEW) return null;
  const found = await api("GET", "/v1/users/suggestions?limit=5");
  if (!found.items.length) return null;
  const heading = h("h2", { id: "who-to-follow", tabindex: "-1" }, "Who to follow");
  return h(
    "section",
    { class: "panel discover", "aria-labelledby": "who-to-follow" },
    heading,
    h("ul", { class: "people-list" }, found.items.map((person) => suggestionRow(person, heading))),
    h("p", {}, h("a", { href: "#/people" }, "Find more people")),
  );
}

/** The day's most liked and discussed posts, or null when there are none. */
export async function trendingNow() {
  const page = await api("GET", "/v1/trending?window=24h&limit=5");
  if (!page.items.length) return null;
  return h(
    "section",
    { class: "discover", "aria-labelledby": "trending-now" },
    h("h2", { id: "trending-now" }, "Trending today"),
    h("div", { class: "list", role: "feed", "aria-label": "Trending today" }, page.items.map((item) => postCard(item))),
  );
}
