// A post's comments: newest first, a page at a time, add (retry-safe with an
// Idempotency-Key), delete your own where the server offers it.

import { api, idempotencyKey, serverCapabilities, session } from "./api.js";
import { confirmAction, h, profileHref, richText, timeElement } from "./dom.js";
import { attempt, errorPanel } from "./status.js";

const PAGE = 10;
const people = new Map(); // user ID -> Promise of a profile

function person(userId) {
  if (!people.has(userId)) {
    people.set(userId, api("GET", `/v1/users/${userId}`).catch(() => null));
  }
  return people.get(userId);
}

export function openComments(postId, onCount) {
  const list = h("ol", { class: "comment-list", "aria-label": "Comments" });
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "Load more comments");
  const panel = h("section", { class: "comments" }, list, more, commentForm(postId, list, onCount));
  let cursor = null;

  const load = async () => {
    more.disabled = true;
    try {
      const query = new URLSearchParams({ limit: String(PAGE) });
      if (cursor) query.set("cursor", cursor);
      const page = await api("GET", `/v1/posts/${postId}/comments?${query}`);
      list.append(...(await Promise.all(page.items.map((c) => commentItem(c, onCount)))));
      cursor = page.next_cursor;
      more.hidden = !cursor;
      if (!page.items.length && !list.children.length) list.append(h("li", { class: "empty" }, "No comments yet."));
    } catch (error) {
      list.append(h("li", {}, errorPanel(error, () => { list.lastChild.remove(); load(); })));
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener("click", load);
  load();
  return panel;
}

async function commentItem(comment, onCount) {
  const [author, capabilities] = await Promise.all([person(comment.author_id), serverCapabilities().catch(() => ({}))]);
  const mine = session.user && session.user.id === comment.author_id;
  const name = author ? h("a", { href: profileHref(author.username), class: "name" }, author.name || author.username) : h("span", { class: "name" }, "someone");
  const item = h("li", { class: "comment", dataset: { commentId: comment.id } }, h("div", { class: "meta" }, name, " ", timeElement(comment.created_at)), h("p", { class: "text" }, richText(comment.text)));
  if (mine && capabilities.deleteComment) {
    item.querySelector(".meta").append(
      h("button", {
        type: "button",
        class: "link danger-text",
        onclick: async () => {
          if (!(await confirmAction("Delete your comment?", "Delete"))) return;
          const done = await attempt(() => api("DELETE", `/v1/posts/${comment.post_id}/comments/${comment.id}`));
          if (done === undefined) return;
          item.remove();
          onCount(-1);
        },
      }, "Delete"),
    );
  }
  return item;
}

function commentForm(postId, list, onCount) {
  const id = `comment-${postId}`;
  const field = h("textarea", { id, rows: 2, required: true, maxlength: 1000, placeholder: "Write a comment" });
  const send = h("button", { type: "submit" }, "Comment");
  let key = idempotencyKey();
  serverCapabilities().then((c) => field.setAttribute("maxlength", c.commentMaxChars), () => {});
  const form = h("form", { class: "comment-form" }, h("label", { for: id, class: "visually-hidden" }, "Add a comment"), field, send);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = field.value.trim();
    if (!text) return;
    send.disabled = true;
    const comment = await attempt(() => api("POST", `/v1/posts/${postId}/comments`, { body: { text }, headers: { "Idempotency-Key": key } }));
    send.disabled = false;
    if (comment === undefined) return; // kept as typed, with the same key for the retry
    key = idempotencyKey();
    field.value = "";
    const empty = list.querySelector(".empty");
    if (empty) empty.remove();
    list.prepend(await commentItem(comment, onCount)); // newest first, as the server lists them
    onCount(1);
  });
  return form;
}
