// Errors and limits said the way people expect: 429 "slow down", offline with a retry
// button, everything else with the server's own detail. A view that cannot load shows a
// panel with Retry in its place, so the page is never blank.

import { ApiError, OfflineError } from "./api.js";
import { h } from "./dom.js";

const area = () => document.getElementById("status");
let countdown = null;

export function describe(error) {
  if (error instanceof OfflineError) return "You're offline, or the server can't be reached.";
  if (error instanceof ApiError) {
    if (error.status === 429) return `Slow down: try again in ${error.retryAfter || 1} s.`;
    if (error.status >= 500) return "Something went wrong on the server. Try again in a moment.";
    return error.message;
  }
  return "Something went wrong.";
}

/** Say what went wrong at the top of the page; `retry` adds a Retry button. */
export function showError(error, retry = null) {
  clearInterval(countdown);
  const text = h("span", {}, describe(error));
  const box = h("div", { class: "message error", role: "alert" }, text);
  if (error instanceof ApiError && error.status === 429 && error.retryAfter) {
    let left = error.retryAfter;
    countdown = setInterval(() => {
      left -= 1;
      if (left <= 0) {
        clearInterval(countdown);
        box.remove();
        return;
      }
      text.textContent = `Slow down: try again in ${left} s.`;
    }, 1000);
  }
  if (retry) {
    box.append(
      h("button", { type: "button", class: "secondary", onclick: () => { box.remove(); retry(); } }, "Retry"),
    );
  }
  box.append(h("button", { type: "button", class: "link", "aria-label": "Dismiss", onclick: () => box.remove() }, "×"));
  area().replaceChildren(box);
}

/** A problem the client itself found (no request was made). */
export function showWarning(text) {
  clearInterval(countdown);
  const box = h("div", { class: "message error", role: "alert" }, h("span", {}, text));
  box.append(h("button", { type: "button", class: "link", "aria-label": "Dismiss", onclick: () => box.remove() }, "×"));
  area().replaceChildren(box);
}

export function showInfo(text) {
  clearInterval(countdown);
  const box = h("div", { class: "message" }, text);
  area().replaceChildren(box);
  setTimeout(() => box.remove(), 4000);
}

export function clearStatus() {
  area().replaceChildren();
}

/** In place of content that failed to load: what happened and a Retry button. */
export function errorPanel(error, retry) {
  return h(
    "div",
    { class: "panel error", role: "alert" },
    h("p", {}, describe(error)),
    h("button", { type: "button", onclick: retry }, "Retry"),
  );
}

/** Run an action; show its error if it fails (the caller keeps the page as it was). */
export async function attempt(action, retry = null) {
  try {
    return await action();
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) showError(error, retry);
    return undefined;
  }
}
