// A tag's page (#/tag/{name}): its name, how many posts, follow / unfollow, its posts;
// and the followed tags of the settings page, each with Unfollow.

import { api } from "./api.js";
import { h, plural } from "./dom.js";
import { tagHref } from "./facets.js";
import { pagedList } from "./pager.js";
import { postCard } from "./post.js";
import { attempt, showInfo } from "./status.js";

function tagPath(name, rest = "") {
  return `/v1/tags/${encodeURIComponent(name)}${rest}`;
}

/** Follow / Following for a tag: an idempotent PUT or DELETE, so a retry is safe. */
export function tagFollowButton(tag, onChange = () => {}) {
  let following = tag.followed_by_me;
  const button = h("button", { type: "button", class: "relation follow-tag" });
  const render = () => {
    button.textContent = following ? "Following" : "Follow";
    button.setAttribute("aria-pressed", String(following));
    button.setAttribute("aria-label", `${following ? "Unfollow" : "Follow"} #${tag.name}`);
    button.classList.toggle("secondary", following);
  };
  button.addEventListener("click", async () => {
    const want = !following;
    button.disabled = true;
    const done = await attempt(() => api(want ? "PUT" : "DELETE", tagPath(tag.name, "/follow")));
    button.disabled = false;
    if (done === undefined) return;
    following = want;
    render();
    onChange(following);
  });
  render();
  return button;
}

export async function tagView(main, name) {
  const tag = await api("GET", tagPath(name));
  const posts = pagedList({
    label: `Posts tagged #${tag.name}`,
    emptyText: "No posts with this tag yet.",
    fetchPage: (cursor) => {
      const params = new URLSearchParams({ limit: "20" });
      if (cursor) params.set("cursor", cursor);
      return api("GET", `${tagPath(tag.name, "/posts")}?${params}`);
    },
    renderItem: (item) => postCard(item),
  });
  const follow = tagFollowButton(tag, (on) => {
    showInfo(on ? `Posts with #${tag.name} now come to your feed.` : `You no longer follow #${tag.name}.`);
  });
  main.replaceChildren(
    h(
      "section",
      { class: "tag-head panel", "aria-labelledby": "tag-name" },
      h("h1", { id: "tag-name" }, `#${tag.name}`),
      h("p", { class: "counts" }, plural(tag.posts_count, "post")),
      h("div", { class: "row" }, follow),
    ),
    h("h2", { class: "visually-hidden" }, "Posts"),
    posts.element,
  );
  await posts.reload();
  return () => posts.destroy();
}

/** Settings: "Followed tags", each a link to its page and an Unfollow button. */
export function followedTagsSection() {
  const heading = h("h2", { id: "set-tags", tabindex: "-1" }, "Followed tags");
  const list = h("ul", { class: "tags", "aria-labelledby": "set-tags" });
  const empty = h("p", { class: "end" }, "You follow no tags. Open a tag in a post to follow it.");
  const row = (tag) => {
    const button = h("button", { type: "button", class: "secondary", "aria-label": `Unfollow #${tag.name}` }, "Unfollow");
    const item = h("li", { dataset: { tag: tag.name } }, h("a", { href: tagHref(tag.name) }, `#${tag.name}`), " ", button);
    button.addEventListener("click", async () => {
      button.disabled = true;
      const done = await attempt(() => api("DELETE", tagPath(tag.name, "/follow")));
      button.disabled = false;
      if (done === undefined) return;
      showInfo(`Unfollowed #${tag.name}.`);
      const next = item.nextElementSibling || item.previousElementSibling;
      item.remove();
      empty.hidden = list.children.length > 0;
      (next ? next.querySelector("button") : heading).focus();
    });
    return item;
  };
  const section = h("section", { class: "panel", "aria-labelledby": "set-tags" }, heading, list, empty);
  api("GET", "/v1/me/tags").then((found) => {
    list.replaceChildren(...found.items.map(row));
    empty.hidden = found.items.length > 0;
  }, () => {
    empty.textContent = "Your followed tags could not be loaded.";
  });
  return section;
}
