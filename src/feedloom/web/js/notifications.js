// Notifications: the bell's unread badge (kept live by the home stream's `notification`
// events, polled when no stream can be had) and the notifications page: groups ("alice
// and 14 others liked your post"), avatars, the post's excerpt linking to its thread,
// filters by type, "Mark all read".

import { api, session } from "./api.js";
import { avatar, bigger, h, timeElement } from "./dom.js";
import { pagedList } from "./pager.js";
import { attempt, showInfo } from "./status.js";

const POLL_MS = 30_000;
const REOPEN_MS = 5_000;

export const TYPES = [
  ["like", "Likes"],
  ["reply", "Replies"],
  ["mention", "Mentions"],
  ["repost", "Reposts"],
  ["quote", "Quotes"],
  ["follow", "Follows"],
  ["moderation", "Moderation"],
];

const VERBS = {
  like: "liked your post",
  reply: "replied to your post",
  mention: "mentioned you",
  repost: "reposted your post",
  quote: "quoted your post",
  follow: "followed you",
};

const MODERATION = {
  held: "Your post is held for review",
  released: "Your post was released by a moderator",
  rejected: "Your post was removed by a moderator",
};

/** The bell's badge: the unread count, live while signed in. */
class Bell {
  constructor() {
    this.source = null;
    this.timer = null;
    this.listeners = new Set();
    this.started = false;
  }

  start() {
    if (this.started || !session.token) return;
    this.started = true;
    this.refresh();
    this.open();
  }

  stop() {
    this.started = false;
    clearTimeout(this.timer);
    this.timer = null;
    if (this.source) this.source.close();
    this.source = null;
    this.show(0);
  }

  onNotification(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async refresh() {
    try {
      this.show((await api("GET", "/v1/notifications/unread_count")).unread_count);
    } catch {
      // Offline or signed out: the next event or poll says it.
    }
  }

  show(count) {
    const badge = document.getElementById("bell-badge");
    const bell = document.getElementById("nav-bell");
    if (!badge || !bell) return;
    badge.hidden = !count;
    badge.textContent = count > 99 ? "99+" : String(count);
    bell.setAttribute("aria-label", count ? `Notifications, ${count} unread` : "Notifications");
  }

  async open() {
    let ticket;
    try {
      ticket = await api("POST", "/v1/streams/tickets");
    } catch {
      this.poll();
      return;
    }
    if (!this.started) return;
    const source = new EventSource(ticket.url);
    this.source = source;
    source.addEventListener("notification", (event) => {
      const data = JSON.parse(event.data);
      this.show(data.unread_count);
      for (const listener of this.listeners) listener(data);
    });
    source.addEventListener("error", () => {
      if (source.readyState !== EventSource.CLOSED || this.source !== source) return;
      this.source = null;
      this.timer = setTimeout(() => { this.timer = null; this.open(); }, REOPEN_MS);
    });
  }

  poll() {
    this.timer = setTimeout(async () => {
      this.timer = null;
      await this.refresh();
      if (this.started) this.open();
    }, POLL_MS);
  }
}

export const bell = new Bell();

function names(item) {
  const first = item.accounts[0];
  const name = first ? first.name : "Someone";
  const others = item.accounts_count - 1;
  if (others <= 0) return name;
  return `${name} and ${others} ${others === 1 ? "other" : "others"}`;
}

export function describeGroup(item) {
  if (item.type === "moderation") {
    const outcome = item.group_key.split(":")[2];
    return MODERATION[outcome] || "A moderator looked at your post";
  }
  return `${names(item)} ${VERBS[item.type]}`;
}

function notificationCard(item, readUpTo) {
  const unread = bigger(item.id, readUpTo);
  const post = item.post;
  const excerpt = post
    ? h("a", { href: `#/post/${post.post_id}`, class: "excerpt" }, post.text.length > 140 ? `${post.text.slice(0, 140)}…` : post.text || "(a post)")
    : null;
  return h(
    "article",
    { class: `post notification${unread ? " unread" : ""}`, dataset: { type: item.type, id: item.id }, "aria-label": describeGroup(item) },
    h("div", { class: "avatars" }, item.accounts.map((account) => avatar(account, "small"))),
    h("p", { class: "what" }, describeGroup(item), " · ", timeElement(item.created_at), unread ? h("span", { class: "badge" }, "new") : null),
    excerpt,
  );
}

export async function notificationsView(main) {
  const filter = h(
    "select",
    { id: "notif-type", "aria-label": "Show" },
    h("option", { value: "" }, "All"),
    TYPES.map(([value, label]) => h("option", { value }, label)),
  );
  const markAll = h("button", { type: "button", class: "secondary", id: "mark-all-read" }, "Mark all read");
  let newest = null;
  let readUpTo = (await api("GET", "/v1/notifications/unread_count")).up_to;
  const paged = pagedList({
    label: "Notifications",
    emptyText: "Nothing yet: likes, replies, mentions, reposts and follows show up here.",
    fetchPage: async (cursor) => {
      const params = new URLSearchParams({ limit: "20" });
      if (cursor) params.set("cursor", cursor);
      if (filter.value) params.set("types", filter.value);
      const page = await api("GET", `/v1/notifications?${params}`);
      if (!cursor && page.items.length && (newest === null || bigger(page.items[0].id, newest))) newest = page.items[0].id;
      bell.show(page.unread_count);
      return page;
    },
    renderItem: (item) => notificationCard(item, readUpTo),
  });
  filter.addEventListener("change", () => paged.reload());
  markAll.addEventListener("click", async () => {
    if (newest === null) return;
    const done = await attempt(() => api("POST", "/v1/notifications/read", { body: { up_to: newest } }));
    if (done === undefined) return;
    readUpTo = done.up_to;
    bell.show(done.unread_count);
    for (const card of paged.list.querySelectorAll(".notification.unread")) {
      card.classList.remove("unread");
      card.querySelector(".badge")?.remove();
    }
    showInfo("All caught up.");
  });
  main.replaceChildren(
    h("div", { class: "row" }, h("h1", {}, "Notifications"), h("span", { class: "spacer" }), filter, markAll),
    paged.element,
  );
  await paged.reload();
  const unsubscribe = bell.onNotification((data) => {
    if (data.notification) paged.reload();
  });
  return () => {
    unsubscribe();
    paged.destroy();
  };
}

/** Settings: a switch per notification type (PUT /v1/me/settings). */
export function notificationSwitches(preferences) {
  const switches = preferences.notifications || {};
  const form = h(
    "form",
    { class: "panel stack" },
    h(
      "fieldset",
      {},
      h("legend", {}, "Notifications"),
      TYPES.map(([value, label]) =>
        h("label", { class: "choice" }, h("input", { type: "checkbox", name: "notify", value, checked: switches[value] !== false }), " ", label),
      ),
    ),
    h("div", { class: "row end" }, h("button", { type: "submit", class: "primary" }, "Save notifications")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const chosen = {};
    for (const box of form.querySelectorAll("input[name=notify]")) chosen[box.value] = box.checked;
    const saved = await attempt(() => api("PUT", "/v1/me/settings", { body: { notifications: chosen } }));
    if (saved !== undefined) {
      showInfo("Notification settings saved.");
      bell.refresh();
    }
  });
  return form;
}
