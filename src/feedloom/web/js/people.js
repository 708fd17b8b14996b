// People: search as you type, followers / following lists, and the row each shows.

import { api } from "./api.js";
import { avatar, h, profileHref } from "./dom.js";
import { pagedList } from "./pager.js";
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

export function searchView(main) {
  const field = h("input", { id: "people-q", type: "search", autocomplete: "off", placeholder: "Name or @username", maxlength: 64 });
  const summary = h("p", { class: "hint", "aria-live": "polite" });
  let results = null;
  let timer = null;
  let query = "";

  const run = () => {
    query = field.value.trim().replace(/^@/, "");
    if (results) results.destroy();
    if (!query) {
      results = null;
      holder.replaceChildren();
      summary.textContent = "";
      return;
    }
    const wanted = query;
    results = pagedList({
      label: "People found",
      emptyText: "",
      endText: "",
      fetchPage: async (cursor) => {
        const params = new URLSearchParams({ q: wanted, limit: "20" });
        if (cursor) params.set("cursor", cursor);
        const page = await api("GET", `/v1/users/search?${params}`);
        if (!cursor && wanted === query) summary.textContent = page.items.length ? "" : `No one matches “${wanted}”.`;
        return page;
      },
      renderItem: personRow,
      role: "list",
    });
    holder.replaceChildren(results.element);
    results.reload();
  };
  const holder = h("div");
  field.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(run, 200);
  });
  main.replaceChildren(
    h("h1", {}, "Find people"),
    h("form", { role: "search", class: "panel", onsubmit: (e) => { e.preventDefault(); clearTimeout(timer); run(); } }, h("label", { for: "people-q" }, "Search people"), field),
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
