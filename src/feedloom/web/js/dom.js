// Building the page. Every piece of user-written text goes in as a text node or an
// attribute value, never as markup: nothing in this client parses a string as HTML.

export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else if (key === "class") element.className = value;
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (key === "hidden" || key === "disabled" || key === "checked" || key === "value") element[key] = value;
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  element.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return element;
}

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+|@[A-Za-z0-9_]{3,32}\b/g;
const TRAILING = /[.,;:!?)\]}'"]+$/;

/** Text with web links and @mentions made into safe links; everything else stays text. */
export function richText(text) {
  const nodes = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    let token = match[0];
    if (token.startsWith("http")) token = token.replace(TRAILING, "");
    const link = token.startsWith("@") ? mention(token) : webLink(token);
    if (!link) continue;
    nodes.push(text.slice(last, match.index), link);
    last = match.index + token.length;
  }
  nodes.push(text.slice(last));
  return nodes.filter((n) => n !== "");
}

function webLink(raw) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  return h("a", { href: url.href, rel: "noopener noreferrer nofollow ugc", target: "_blank" }, raw);
}

function mention(token) {
  return h("a", { href: `#/u/${encodeURIComponent(token.slice(1))}` }, token);
}

const UNITS = [
  ["y", 365 * 86400],
  ["w", 7 * 86400],
  ["d", 86400],
  ["h", 3600],
  ["m", 60],
];

export function relativeTime(iso, now = Date.now()) {
  const seconds = Math.max(0, (now - Date.parse(iso)) / 1000);
  if (seconds < 45) return "now";
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return `${Math.floor(seconds / size)}${unit}`;
  }
  return "1m";
}

export function timeElement(iso) {
  const when = new Date(iso);
  return h("time", { datetime: iso, title: when.toLocaleString(), class: "ago" }, relativeTime(iso));
}

/** Keep the relative times fresh while the page stays open. */
export function tickTimes() {
  setInterval(() => {
    for (const time of document.querySelectorAll("time.ago")) {
      time.textContent = relativeTime(time.getAttribute("datetime"));
    }
  }, 30_000);
}

export function avatar(person, size = "") {
  const name = person.name || person.username;
  if (person.avatar) {
    return h("img", { class: `avatar ${size}`, src: person.avatar, alt: "", width: 48, height: 48, loading: "lazy" });
  }
  return h("span", { class: `avatar placeholder ${size}`, "aria-hidden": "true" }, (name[0] || "?").toUpperCase());
}

export function profileHref(username, tab = "") {
  return `#/u/${encodeURIComponent(username)}${tab ? `/${tab}` : ""}`;
}

export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/** A modal confirmation (the page's <dialog>): resolves true when confirmed. */
export function confirmAction(question, action = "OK") {
  const dialog = document.getElementById("confirm");
  dialog.querySelector("#confirm-title").textContent = question;
  dialog.querySelector("#confirm-ok").textContent = action;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
  });
}

export function bigger(a, b) {
  return BigInt(a) > BigInt(b);
}
