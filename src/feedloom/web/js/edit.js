// Editing your own post (PATCH /v1/posts/{id}: the text; media and their alt text stay
// as they are here) and the "edited" mark that opens the post's history, a modal
// <dialog> listing every version oldest first (Escape closes it, focus goes back).

import { api } from "./api.js";
import { h, richText, timeElement } from "./dom.js";
import { attempt } from "./status.js";

/** "Edited" on a post that was: a button that opens its history. */
export function editedMark(item) {
  if (!item.edited_at) return null;
  return h(
    "button",
    { type: "button", class: "link edited", title: "See every version", onclick: (e) => openHistory(item, e.currentTarget) },
    "edited",
  );
}

async function openHistory(item, opener) {
  const history = await attempt(() => api("GET", `/v1/posts/${item.post_id}/history`));
  if (history === undefined) return;
  const close = h("button", { type: "button", class: "secondary" }, "Close");
  const dialog = h(
    "dialog",
    { class: "history", "aria-labelledby": "history-title" },
    h("h2", { id: "history-title" }, "Edit history"),
    h(
      "ol",
      { class: "versions" },
      history.items.map((version) =>
        h(
          "li",
          { class: "version", dataset: { version: String(version.version) } },
          h("p", { class: "meta" }, version.current ? "Now · " : `Version ${version.version} · `, timeElement(version.written_at)),
          h("p", { class: "text" }, richText(version.text)),
          version.media.length ? h("p", { class: "hint" }, `${version.media.length} image(s)`) : null,
        ),
      ),
    ),
    h("div", { class: "row end" }, close),
  );
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    dialog.remove();
    opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
}

/** "Edit" on your own post: the text in place, saved or cancelled; `onEdited(item)`
 * gets the post as the server now shows it. */
export function editButton(item, card, onEdited) {
  const button = h("button", { type: "button", class: "link edit" }, "Edit");
  button.addEventListener("click", () => {
    if (card.querySelector("form.edit-form")) return;
    const field = h("textarea", { "aria-label": "Edit your post", rows: 3, maxlength: 500 }, item.text);
    const save = h("button", { type: "submit" }, "Save");
    const cancel = h("button", { type: "button", class: "secondary" }, "Cancel");
    const form = h("form", { class: "edit-form" }, field, h("div", { class: "row end" }, cancel, save));
    const text = card.querySelector(":scope > .text");
    if (text) text.hidden = true;
    const done = () => {
      form.remove();
      if (text) text.hidden = false;
      button.focus();
    };
    cancel.addEventListener("click", done);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      save.disabled = true;
      const edited = await attempt(() => api("PATCH", `/v1/posts/${item.post_id}`, { body: { text: field.value } }));
      save.disabled = false;
      if (edited === undefined) return;
      onEdited(edited);
    });
    card.querySelector(".actions").before(form);
    field.focus();
  });
  return button;
}
