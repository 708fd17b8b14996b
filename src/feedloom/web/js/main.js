// The web client's entry: a hash router over the views (and /p/{id}, a post's link).
// Signed out, every page but log in / sign up leads to log in (and back to the page
// asked for, once signed in); a 401 anywhere does the same.

import { ApiError, OfflineError, api, onSignedOut, session } from "./api.js";
import { authView } from "./auth.js";
import { h, profileHref, tickTimes } from "./dom.js";
import { homeView } from "./feed.js";
import { listView, listsView, newFeedView, savedFeedView } from "./feeds.js";
import { bell, notificationsView } from "./notifications.js";
import { connectionsView, searchView } from "./people.js";
import { profileView } from "./profile.js";
import { settingsView } from "./settings.js";
import { tagView } from "./tags.js";
import { threadView } from "./thread.js";
import { clearStatus, errorPanel, showError } from "./status.js";

const ROUTES = [
  [/^#\/login$/, (main) => authView(main, "login"), false],
  [/^#\/signup$/, (main) => authView(main, "signup"), false],
  [/^#\/people$/, (main) => searchView(main, "people"), true],
  [/^#\/search$/, (main) => searchView(main, "posts"), true],
  [/^#\/settings$/, settingsView, true],
  [/^#\/lists$/, listsView, true],
  [/^#\/lists\/(\d+)$/, listView, true],
  [/^#\/feeds\/new$/, newFeedView, true],
  [/^#\/feeds\/(\d+)$/, savedFeedView, true],
  [/^#\/notifications$/, notificationsView, true],
  [/^#\/post\/(\d+)$/, threadView, true],
  [/^#\/tag\/([^/]+)$/, (main, name) => tagView(main, decodeURIComponent(name)), true],
  [/^#\/u\/([^/]+)\/(followers|following)$/, (main, name, tab) => connectionsView(main, decodeURIComponent(name), tab), true],
  [/^#\/u\/([^/]+)$/, (main, name) => profileView(main, decodeURIComponent(name)), true],
  [/^#\/?$/, homeView, true],
];

const main = document.getElementById("main");
let cleanup = null;
let navigation = 0;

// A shared link, /p/{id}, opens that post's thread page; the other pages stay hash routes.
const permalink = location.pathname.match(/^\/p\/(\d+)$/);
if (permalink && !location.hash) history.replaceState(null, "", `#/post/${permalink[1]}`);
const NEXT = "feedloom.next";

async function route() {
  const hash = location.hash || "#/";
  const [pattern, view, needsSession] = ROUTES.find(([p]) => p.test(hash)) || ROUTES[ROUTES.length - 1];
  if (needsSession && !session.token) {
    if (hash !== "#/") sessionStorage.setItem(NEXT, hash); // back there once signed in
    location.replace("#/login");
    return;
  }
  if (!needsSession && session.token) {
    location.replace("#/");
    return;
  }
  const next = sessionStorage.getItem(NEXT);
  if (next && session.token) {
    sessionStorage.removeItem(NEXT);
    if (hash === "#/") {
      location.replace(next);
      return;
    }
  }
  const mine = ++navigation;
  if (cleanup) cleanup();
  cleanup = null;
  clearStatus();
  showNav();
  main.replaceChildren(h("p", { class: "loading" }, "Loading…"));
  const args = hash.match(pattern).slice(1);
  try {
    const done = await view(main, ...args);
    if (mine === navigation) cleanup = typeof done === "function" ? done : null;
    else if (typeof done === "function") done();
  } catch (error) {
    if (mine !== navigation || (error instanceof ApiError && error.status === 401)) return;
    const notFound = error instanceof ApiError && error.status === 404;
    main.replaceChildren(notFound ? h("div", { class: "panel" }, h("p", {}, "Nothing here: it may have been deleted, or you can't see it."), h("a", { href: "#/" }, "Back to your feed")) : errorPanel(error, route));
  }
  if (mine === navigation && document.activeElement === document.body) main.focus({ preventScroll: true });
}

function showNav() {
  const nav = document.getElementById("nav");
  nav.hidden = !session.token;
  if (session.token) bell.start();
  else bell.stop();
  const user = session.user;
  document.getElementById("nav-profile").href = user ? profileHref(user.username) : "#/";
  const here = location.hash || "#/";
  for (const link of nav.querySelectorAll("a")) {
    if (link.getAttribute("href") === here) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

document.getElementById("logout").addEventListener("click", async () => {
  try {
    await api("DELETE", "/v1/sessions/current");
  } catch {
    // Signed out here either way; the token dies with its session or its expiry.
  }
  session.clear();
  bell.stop();
  location.hash = "#/login";
});

onSignedOut(() => {
  location.hash = "#/login";
  route();
});

// Whatever slips through is said on the page, not left in the console.
window.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  if (!(event.reason instanceof ApiError && event.reason.status === 401)) showError(event.reason);
});
window.addEventListener("online", () => clearStatus());
window.addEventListener("offline", () => showError(new OfflineError(), route));
window.addEventListener("hashchange", route);
tickTimes();
route();
