// A thread page (#/post/{id}): the ancestors (root first), the post, a reply composer
// in context (retry-safe with an Idempotency-Key), and the replies depth first, a
// page at a time ("More replies"). Each item says whom it replies to.

import { api, idempotencyKey, serverCapabilities } from "./api.js";
import { h } from "./dom.js";
import { postCard } from "./post.js";
import { attempt, errorPanel } from "./status.js";

const PAGE = 20;

export async function threadView(main, postId) {
  const [post, first] = await Promise.all([api("GET", `/v1/posts/${postId}`), context(postId, null)]);
  const replies = h("ol", { class: "thread-replies", "aria-label": "Replies" });
  const more = h("button", { type: "button", class: "secondary more-replies", hidden: true }, "More replies");
  let cursor = null;
  const show = (page) => {
    replies.append(...page.descendants.map((item) => h("li", {}, postCard(item))));
    cursor = page.next_cursor;
    more.hidden = !cursor;
  };
  more.addEventListener("click", async () => {
    more.disabled = true;
    try {
      show(await context(postId, cursor));
    } catch (error) {
      replies.append(h("li", {}, errorPanel(error, () => more.click())));
    } finally {
      more.disabled = false;
    }
  });
  show(first);
  const ancestors = h("ol", { class: "thread-ancestors", "aria-label": "Earlier in the thread" }, ...first.ancestors.map((item) => h("li", {}, postCard(item))));
  const focus = postCard(post);
  focus.classList.add("focus");
  const link = h("p", { class: "permalink" }, h("a", { href: `/p/${post.post_id}` }, "Link to this post"));
  main.replaceChildren(
    h("section", { class: "thread", "aria-label": "Thread" }, ancestors, focus, link, replyForm(post, replies, () => Boolean(cursor)), replies, more),
  );
}

function context(postId, cursor) {
  const query = new URLSearchParams({ limit: String(PAGE) });
  if (cursor) query.set("cursor", cursor);
  return api("GET", `/v1/posts/${postId}/context?${query}`);
}

function replyForm(post, replies, moreToCome) {
  const id = `reply-${post.post_id}`;
  const field = h("textarea", { id, rows: 2, required: true, maxlength: 500, placeholder: `Reply to ${post.author.name || post.author.username}` });
  const send = h("button", { type: "submit" }, "Reply");
  let key = idempotencyKey();
  serverCapabilities().then((c) => c.postMaxChars && field.setAttribute("maxlength", c.postMaxChars), () => {});
  const form = h("form", { class: "reply-form" }, h("label", { for: id, class: "visually-hidden" }, "Write a reply"), field, send);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = field.value.trim();
    if (!text) return;
    send.disabled = true;
    const body = { text, in_reply_to: post.post_id, visibility: post.visibility };
    const created = await attempt(() => api("POST", "/v1/posts", { body, headers: { "Idempotency-Key": key } }));
    send.disabled = false;
    if (created === undefined) return; // kept as typed, with the same key for the retry
    key = idempotencyKey();
    field.value = "";
    const item = await attempt(() => api("GET", `/v1/posts/${created.post_id}`));
    if (item === undefined) return;
    // Replies come oldest first: a new one ends the list, unless more pages are to come.
    const entry = h("li", {}, postCard(item));
    if (moreToCome()) replies.prepend(entry);
    else replies.append(entry);
  });
  return form;
}
