// Images open large: a modal <dialog> with the picture at its own size at most (never
// upscaled), its alt text under it, a Close button. Tab stays inside while it is open,
// Escape closes it (the dialog's own cancel), and focus goes back to the image link.

import { h } from "./dom.js";

let parts = null;
let opener = null;

function build() {
  const picture = h("img", { class: "lightbox-image", alt: "" });
  const caption = h("figcaption", { class: "lightbox-alt", id: "lightbox-alt" });
  const original = h("a", { class: "button secondary", target: "_blank", rel: "noopener" }, "Open original");
  const close = h("button", { type: "button", class: "lightbox-close" }, "Close");
  const box = h(
    "dialog",
    { class: "lightbox", "aria-label": "Image", "aria-describedby": "lightbox-alt" },
    h("figure", {}, picture, caption),
    h("div", { class: "row end" }, original, close),
  );
  close.addEventListener("click", () => box.close());
  box.addEventListener("click", (event) => {
    if (event.target === box) box.close(); // a click on the backdrop
  });
  box.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const first = original;
    const last = close;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
  box.addEventListener("close", () => {
    if (opener && opener.isConnected) opener.focus();
    opener = null;
  });
  document.body.append(box);
  return { box, picture, caption, original, close };
}

/** Shows the original of `media` large; `from` gets focus back on close. */
export function openLightbox(media, from) {
  if (!parts) parts = build();
  const { box, picture, caption, original, close } = parts;
  opener = from;
  picture.src = media.url;
  picture.alt = media.alt || "";
  picture.width = media.w;
  picture.height = media.h;
  picture.style.maxWidth = `min(100%, ${media.w}px)`;
  caption.textContent = media.alt || "No description was given for this image.";
  original.href = media.url;
  box.showModal();
  close.focus();
}
