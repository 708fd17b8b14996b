// Sharing a post: repost (a toggle with its count and your state, optimistic, then the
// server's word), quote (a composer under the card: your text, the post embedded), the
// quoted post shown inside a quote (or "unavailable"), and "Reposted by X" on an entry.

import { api, idempotencyKey, serverCapabilities } from "./api.js";
import { h, plural, timeElement } from "./dom.js";
import { facetText } from "./facets.js";
import { attempt, showError, showInfo } from "./status.js";

const NOT_SHAREABLE = "Only public posts can be reposted or quoted";

/** "Reposted by X" above a repost's entry (the API names the reposter, not their handle). */
export function repostedBy(item) {
  if (!item.reposted_by) return null;
  return h("p", { class: "reposted-by" }, h("span", { "aria-hidden": "true" }, "⟲ "), `Reposted by ${item.reposted_by.name || "someone"}`);
}

/** The post a quote embeds, as the reader may see it, or a placeholder. */
export function quotedPost(quote) {
  if (!quote) return null;
  if (quote.unavailable) return h("p", { class: "quoted unavailable" }, "This post is unavailable.");
  const { author } = quote;
  return h(
    "blockquote",
    { class: "quoted" },
    h(
      "p",
      { class: "quoted-by" },
      h("span", { class: "name" }, author.name || author.username),
      " ",
      h("span", { class: "handle" }, `@${author.username}`),
      " · ",
      timeElement(quote.created_at),
    ),
    quote.text ? h("p", { class: "text" }, facetText(quote.text, quote.facets)) : null,
    quote.media.length ? h("p", { class: "hint" }, plural(quote.media.length, "image")) : null,
    h("a", { href: `#/post/${quote.post_id}`, class: "quoted-link" }, "Open the quoted post"),
  );
}

export function repostButton(item) {
  const shareable = item.visibility === "public";
  let reposted = item.reposted_by_me;
  let serverReposted = reposted;
  let syncing = false;
  const base = item.reposts - (reposted ? 1 : 0);
  const count = h("span", { class: "count" });
  const button = h(
    "button",
    { type: "button", class: "repost", "aria-pressed": String(reposted), disabled: !shareable, title: shareable ? null : NOT_SHAREABLE },
    h("span", { "aria-hidden": "true" }, "⟲"),
    h("span", { class: "visually-hidden" }, "Repost, "),
    count,
  );
  const render = () => {
    button.setAttribute("aria-pressed", String(reposted));
    count.textContent = plural(Math.max(0, base + (reposted ? 1 : 0)), "repost");
  };
  // As for likes: clicks change what the person wants at once, one request at a time
  // brings the server there. PUT and DELETE are idempotent, so success means done.
  const sync = async () => {
    if (syncing) return;
    syncing = true;
    try {
      while (serverReposted !== reposted) {
        const wanted = reposted;
        await api(wanted ? "PUT" : "DELETE", `/v1/posts/${item.post_id}/repost`);
        serverReposted = wanted;
      }
    } catch (error) {
      reposted = serverReposted;
      render();
      showError(error);
    } finally {
      syncing = false;
    }
  };
  button.addEventListener("click", () => {
    reposted = !reposted;
    render();
    sync();
  });
  render();
  return button;
}

/** The quote button and its composer, opened under `card`; `onPosted` gets the new
quote's item (the home feed puts it on top), else a message says it is posted. */
export function quoteButton(item, card, onPosted = null) {
  const shareable = item.visibility === "public";
  let quotes = item.quotes;
  let form = null;
  const count = h("span", { class: "count" });
  const button = h(
    "button",
    { type: "button", class: "quote", "aria-expanded": "false", disabled: !shareable, title: shareable ? null : NOT_SHAREABLE },
    h("span", { "aria-hidden": "true" }, "❝"),
    h("span", { class: "visually-hidden" }, "Quote, "),
    count,
  );
  const render = () => {
    count.textContent = plural(quotes, "quote");
  };
  const close = () => {
    form.hidden = true;
    button.setAttribute("aria-expanded", "false");
    button.focus();
  };
  button.addEventListener("click", () => {
    if (form && !form.hidden) {
      close();
      return;
    }
    if (!form) {
      form = quoteForm(item, close, async (postId) => {
        quotes += 1;
        render();
        const mine = onPosted ? await attempt(() => api("GET", `/v1/posts/${postId}`)) : undefined;
        if (mine === undefined) showInfo("Your quote is posted.");
        else onPosted(mine);
      });
      card.append(form);
    }
    form.hidden = false;
    button.setAttribute("aria-expanded", "true");
    form.querySelector("textarea").focus();
  });
  render();
  return button;
}

function quoteForm(item, close, onQuoted) {
  const id = `quote-${item.repost_id || item.post_id}`;
  const field = h("textarea", { id, rows: 2, required: true, maxlength: 500, placeholder: "Add your thoughts" });
  const send = h("button", { type: "submit" }, "Post quote");
  const cancel = h("button", { type: "button", class: "secondary" }, "Cancel");
  let key = idempotencyKey();
  serverCapabilities().then((c) => c.postMaxChars && field.setAttribute("maxlength", c.postMaxChars), () => {});
  const form = h(
    "form",
    { class: "quote-form", "aria-label": `Quote ${item.author.name || item.author.username}'s post` },
    h("label", { for: id, class: "visually-hidden" }, "Your text, above the quoted post"),
    field,
    h("div", { class: "row end" }, cancel, send),
  );
  cancel.addEventListener("click", close);
  form.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = field.value.trim();
    if (!text) return;
    send.disabled = true;
    const body = { text, quote_of: item.post_id };
    const created = await attempt(() => api("POST", "/v1/posts", { body, headers: { "Idempotency-Key": key } }));
    send.disabled = false;
    if (created === undefined) return; // kept as typed, with the same key for the retry
    key = idempotencyKey();
    field.value = "";
    close();
    onQuoted(created.post_id);
  });
  return form;
}
