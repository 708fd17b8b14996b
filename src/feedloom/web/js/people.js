// Search (posts and people, as you type), followers / following lists, and the row
// each person shows.

import { api } from "./api.js";
import { avatar, h, plural, profileHref } from "./dom.js";
import { pagedList } from "./pager.js";
import { postCard } from "./post.js";
import { followButton } from "./relations.js";

export function personRow(person) {
  return h(
    "div",
    { class: "person", dataset: { userId: person.id } },
    h("a", { href: profileHref(person.username), class: "avatar-link", tabindex: "-1", "aria-hidden": "true" }, avatar(person)),
    h(
      "div",
      { class: "who" },
      h("a", { href: profileHref(person.username), class: "name" }, person.name || person.username),
      h("span", { class: "handle" }, `@${person.username}`),
      person.follows_me ? h("span", { class: "badge" }, "follows you") : null,
      person.bio ? h("p", { class: "bio" }, person.bio) : null,
    ),
    followButton(person),
  );
}

const TABS = [
  ["posts", "Posts"],
  ["people", "People"],
  ["tags", "Tags"],
];
const LABELS = { posts: "Posts found", people: "People found", tags: "Tags found" };

function tagRow(tag) {
  return h("div", { class: "tag-row", dataset: { tag: tag.name } }, h("span", { class: "name" }, `#${tag.name}`), " · ", h("span", { class: "hint" }, plural(tag.posts_count, "post")));
}

/** Search: posts (every word), people (as you type) or tags (by prefix): one field,
 * three tabs. */
export function searchView(main, kind = "people") {
  const field = h("input", { id: "people-q", type: "search", autocomplete: "off", placeholder: "Words, a name or @username", maxlength: 200 });
  const summary = h("p", { class: "hint", "aria-live": "polite" });
  let results = null;
  let timer = null;
  let query = "";

  const tabs = TABS.map(([value, label]) =>
    h("button", { type: "button", role: "tab", id: `tab-${value}`, class: "tab", "aria-selected": String(value === kind), "aria-controls": "search-results", onclick: () => choose(value) }, label),
  );
  const choose = (value) => {
    kind = value;
    for (const tab of tabs) tab.setAttribute("aria-selected", String(tab.id === `tab-${value}`));
    run();
  };

  const run = () => {
    query = field.value.trim().replace(/^@/, "");
    if (results) results.destroy();
    // Only what the server would search: a letter or digit somewhere.
    if (!/[\p{L}\p{N}]/u.test(query)) {
      results = null;
      holder.replaceChildren();
      summary.textContent = "";
      return;
    }
    const wanted = query;
    const what = kind;
    results = pagedList({
      label: LABELS[what],
      emptyText: "",
      endText: "",
      fetchPage: async (cursor) => {
        const params = new URLSearchParams({ q: wanted, type: what, limit: "20" });
        if (cursor) params.set("cursor", cursor);
        const page = await api("GET", `/v1/search?${params}`);
        if (!cursor && wanted === query && what === kind) summary.textContent = page.items.length ? "" : `Nothing matches “${wanted}”.`;
        return page;
      },
      renderItem: what === "people" ? personRow : what === "tags" ? tagRow : (item) => postCard(item),
      role: what === "posts" ? "feed" : "list",
    });
    holder.replaceChildren(results.element);
    results.reload();
  };
  const holder = h("div", { id: "search-results", role: "tabpanel" });
  field.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(run, 200);
  });
  main.replaceChildren(
    h("h1", {}, "Search"),
    h("form", { role: "search", class: "panel", onsubmit: (e) => { e.preventDefault(); clearTimeout(timer); run(); } }, h("label", { for: "people-q" }, "Search posts and people"), field),
    h("div", { class: "search-tabs", role: "tablist", "aria-label": "What to search" }, tabs),
    summary,
    holder,
  );
  field.focus();
  return () => {
    clearTimeout(timer);
    if (results) results.destroy();
  };
}

/** Followers or following of one person (`tab` is "followers" or "following"). */
export async function connectionsView(main, username, tab) {
  const person = await api("GET", `/v1/users/lookup?username=${encodeURIComponent(username)}`);
  const list = pagedList({
    label: tab === "followers" ? "Followers" : "Following",
    emptyText: tab === "followers" ? "No followers yet." : "Not following anyone yet.",
    fetchPage: (cursor) => {
      const params = new URLSearchParams({ limit: "20" });
      if (cursor) params.set("cursor", cursor);
      return api("GET", `/v1/users/${person.id}/${tab}?${params}`);
    },
    renderItem: personRow,
    role: "list",
  });
  const title = tab === "followers" ? `People following ${person.name || person.username}` : `People ${person.name || person.username} follows`;
  main.replaceChildren(h("p", {}, h("a", { href: profileHref(person.username) }, `← @${person.username}`)), h("h1", {}, title), list.element);
  await list.reload();
  return () => list.destroy();
}
