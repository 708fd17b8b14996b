// The home feed: chronological or ranked, infinite scroll, the composer on top, a
// "N new posts" button fed by the stream (the list never moves by itself), and
// pull-to-refresh on touch screens.

import { ApiError, api } from "./api.js";
import { composer } from "./compose.js";
import { trendingNow, whoToFollow } from "./discover.js";
import { feedSwitcher } from "./feeds.js";
import { bigger, h } from "./dom.js";
import { NewPostNotices } from "./notices.js";
import { pagedList } from "./pager.js";
import { postCard } from "./post.js";
import { attempt } from "./status.js";

const ORDERS = [
  ["chronological", "Latest"],
  ["ranked", "For you"],
];

export async function homeView(main) {
  const preferences = await api("GET", "/v1/me/settings");
  let order = preferences.effective_feed_order;
  let newest = null; // the newest post ID the list shows
  const own = new Set(); // own posts put on top since the last load (the stream counts them too)

  const pill = h("button", { type: "button", class: "pill", hidden: true, "aria-live": "polite" });
  const feed = pagedList({
    label: "Home feed",
    emptyText: "Nothing here yet. Find people to follow, or write the first post.",
    fetchPage: (cursor) => {
      const query = new URLSearchParams({ limit: "20", order });
      if (cursor) query.set("cursor", cursor);
      if (order === "ranked") query.set("explain", "true");
      return api("GET", `/v1/feed?${query}`).catch((error) => {
        // A ranked session expired (410): its cursors are gone, so start from the top.
        if (!(error instanceof ApiError && error.status === 410)) throw error;
        loadTop();
        return { items: [], next_cursor: null };
      });
    },
    renderItem: (item) => {
      const entry = item.repost_id || item.post_id;
      if (newest === null || bigger(entry, newest)) newest = entry;
      return postCard(item, { onPosted: showOwn });
    },
  });
  const notices = new NewPostNotices((count, newestId) => {
    const shownAlready = [...own].filter((id) => !bigger(id, newestId)).length;
    const fresh = count - shownAlready;
    pill.hidden = fresh <= 0;
    pill.textContent = fresh === 1 ? "1 new post" : `${fresh >= 50 ? "50+" : fresh} new posts`;
  }, (state) => { pill.dataset.notices = state; });

  const loadTop = async () => {
    pill.hidden = true;
    newest = null;
    own.clear();
    notices.stop();
    const page = await feed.reload();
    if (page !== null) notices.start(newest);
  };

  pill.addEventListener("click", async () => {
    await loadTop();
    window.scrollTo({ top: 0 });
    const first = feed.list.querySelector("article");
    if (first) first.focus({ preventScroll: true });
  });

  const switcher = h(
    "div",
    { class: "tabs", role: "group", "aria-label": "Feed order" },
    ORDERS.map(([value, label]) =>
      h("button", { type: "button", "aria-pressed": String(value === order), dataset: { order: value }, onclick: () => choose(value) }, label),
    ),
  );
  const choose = (value) => {
    if (value === order) return;
    order = value;
    for (const button of switcher.children) button.setAttribute("aria-pressed", String(button.dataset.order === order));
    loadTop();
  };

  // Your own posts (from the composer, or a quote from a card) go on top at once.
  const showOwn = (item) => {
    own.add(item.post_id);
    feed.prepend(postCard(item, { onPosted: showOwn }));
  };
  const write = composer(showOwn);

  const stopPull = pullToRefresh(main, loadTop);
  // Someone who follows few people yet sees whom they might follow and, while their own
  // feed is empty, what is trending: never an empty first screen.
  const discover = h("div", { class: "discover-slot" });
  const feeds = await feedSwitcher("#/").catch(() => null);
  main.replaceChildren(h("h1", { class: "visually-hidden" }, "Home"), feeds, write, discover, h("div", { class: "feed-head" }, switcher), pill, feed.element);
  const [, me] = await Promise.all([loadTop(), api("GET", "/v1/me")]);
  const extras = await Promise.all([
    whoToFollow(me).catch(() => null),
    feed.list.children.length ? null : trendingNow().catch(() => null),
  ]);
  discover.replaceChildren(...extras.filter(Boolean));
  return () => {
    notices.stop();
    feed.destroy();
    stopPull();
  };
}

/** On a touch screen, pulling down at the top of the page reloads the top. */
function pullToRefresh(main, refresh) {
  const hint = h("div", { class: "pull", "aria-hidden": "true" }, "Release to refresh");
  let startY = null;
  let pulled = 0;
  const start = (event) => {
    startY = window.scrollY === 0 ? event.touches[0].clientY : null;
  };
  const move = (event) => {
    if (startY === null) return;
    pulled = event.touches[0].clientY - startY;
    hint.classList.toggle("ready", pulled > 80);
    if (pulled > 10 && !hint.isConnected) main.prepend(hint);
  };
  const end = () => {
    if (startY !== null && pulled > 80) attempt(refresh);
    hint.remove();
    startY = null;
    pulled = 0;
  };
  window.addEventListener("touchstart", start, { passive: true });
  window.addEventListener("touchmove", move, { passive: true });
  window.addEventListener("touchend", end);
  return () => {
    window.removeEventListener("touchstart", start);
    window.removeEventListener("touchmove", move);
    window.removeEventListener("touchend", end);
  };
}
