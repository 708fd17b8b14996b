// Settings: the choices that can be undone here (accounts you block or mute, each with
// Unblock / Unmute) and your sessions (sign one out, or every other one).

import { api } from "./api.js";
import { avatar, confirmAction, h, profileHref, timeElement } from "./dom.js";
import { pagedList } from "./pager.js";
import { attempt, showInfo } from "./status.js";

/** After a row leaves, focus goes to the next row's button, else the previous one's,
 * else the section's heading: never to the page's top. */
function focusAfterRemoval(element, heading) {
  const row = element.closest("[role=listitem]") || element;
  const next = row.nextElementSibling || row.previousElementSibling;
  row.remove();
  const target = next && next.querySelector("button");
  (target || heading).focus();
}

function undoRow(person, kind, heading, removed) {
  const label = kind === "block" ? "Unblock" : "Unmute";
  const name = person.name || person.username;
  const button = h("button", { type: "button", class: "secondary", "aria-label": `${label} ${name}` }, label);
  const row = h(
    "div",
    { class: "person", dataset: { userId: person.id } },
    h("a", { href: profileHref(person.username), class: "avatar-link", tabindex: "-1", "aria-hidden": "true" }, avatar(person)),
    h("div", { class: "who" }, h("a", { href: profileHref(person.username), class: "name" }, name), h("span", { class: "handle" }, `@${person.username}`)),
    button,
  );
  button.addEventListener("click", async () => {
    button.disabled = true;
    const done = await attempt(() => api("DELETE", `/v1/users/${person.id}/${kind}`));
    button.disabled = false;
    if (done === undefined) return;
    showInfo(`${label}ed ${name}.`);
    focusAfterRemoval(row, heading);
    removed();
  });
  return row;
}

/** "Blocked accounts" or "Muted accounts", paged, each with its undo button. */
export function relationListSection(kind) {
  const title = kind === "block" ? "Blocked accounts" : "Muted accounts";
  const id = `set-${kind}s`;
  const heading = h("h2", { id, tabindex: "-1" }, title);
  const list = pagedList({
    label: title,
    emptyText: kind === "block" ? "You block no one." : "You mute no one.",
    endText: "",
    role: "list",
    fetchPage: (cursor) => {
      const params = new URLSearchParams({ limit: "20" });
      if (cursor) params.set("cursor", cursor);
      return api("GET", `/v1/me/${kind}s?${params}`);
    },
    // The last row gone: the list loads again, to say it is empty or show the next page.
    renderItem: (person) => undoRow(person, kind, heading, () => {
      if (!list.list.children.length) list.reload();
    }),
  });
  list.reload();
  return h("section", { class: "panel stack", "aria-labelledby": id }, heading, list.element);
}

function sessionRow(item, heading) {
  const end = h("button", { type: "button", class: "secondary" }, "Sign out");
  const row = h(
    "li",
    { class: "session-row" },
    h("span", {}, item.current ? h("strong", {}, "This device") : "Another device", " · signed in ", timeElement(item.created_at), " · last used ", timeElement(item.last_used_at)),
    item.current ? null : end,
  );
  end.addEventListener("click", async () => {
    const done = await attempt(() => api("DELETE", `/v1/sessions/${encodeURIComponent(item.id)}`));
    if (done !== undefined) focusAfterRemoval(row, heading);
  });
  return row;
}

/** Your sessions, and "Sign out everywhere else" (DELETE /v1/sessions). */
export function sessionsSection() {
  const heading = h("h2", { id: "set-sessions", tabindex: "-1" }, "Sessions");
  const list = h("ul", { class: "sessions", "aria-labelledby": "set-sessions" });
  const everywhere = h("button", { type: "button", class: "secondary" }, "Sign out everywhere else");
  const load = async () => {
    const sessions = await attempt(() => api("GET", "/v1/sessions"));
    if (sessions === undefined) return;
    list.replaceChildren(...sessions.items.map((item) => sessionRow(item, heading)));
    everywhere.disabled = sessions.items.length < 2;
  };
  everywhere.addEventListener("click", async () => {
    if (!(await confirmAction("Sign out every other device and browser?", "Sign out"))) return;
    const done = await attempt(() => api("DELETE", "/v1/sessions"));
    if (done === undefined) return;
    showInfo("Every other session was signed out.");
    await load();
    heading.focus();
  });
  load();
  return h("section", { class: "panel stack", "aria-labelledby": "set-sessions" }, heading, list, h("div", { class: "row end" }, everywhere));
}
