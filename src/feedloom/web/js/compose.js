// The composer: text with a live character count, up to N images (alt text, upload
// progress), visibility. The post is sent with an Idempotency-Key kept until it
// succeeds, so pressing Post again after an error never makes a second post.

import { api, idempotencyKey, serverCapabilities } from "./api.js";
import { h, plural } from "./dom.js";
import { IMAGE_TYPES, uploadImage } from "./media.js";
import { attempt, showWarning } from "./status.js";

export function composer(onPosted) {
  let limits = { postMaxChars: 500, mediaPerPost: 4 };
  let key = idempotencyKey();
  const images = []; // {file, url, alt input, progress}

  const text = h("textarea", { id: "compose-text", rows: 3, placeholder: "What's new?", "aria-describedby": "compose-count" });
  const count = h("span", { id: "compose-count", class: "count", "aria-live": "polite" });
  const picker = h("input", { id: "compose-images", type: "file", accept: IMAGE_TYPES.join(","), multiple: true, class: "visually-hidden" });
  const pickLabel = h("label", { for: "compose-images", class: "button secondary" }, "Add images");
  const previews = h("ul", { class: "previews", "aria-label": "Images to post" });
  const visibility = h(
    "select",
    { id: "compose-visibility" },
    h("option", { value: "public" }, "Public"),
    h("option", { value: "followers" }, "Followers only"),
  );
  const submit = h("button", { type: "submit", class: "primary" }, "Post");
  const form = h(
    "form",
    { class: "composer panel", "aria-label": "New post" },
    h("label", { for: "compose-text", class: "visually-hidden" }, "Post text"),
    text,
    previews,
    h(
      "div",
      { class: "row" },
      picker,
      pickLabel,
      h("label", { for: "compose-visibility", class: "visually-hidden" }, "Who can see this"),
      visibility,
      h("span", { class: "spacer" }),
      count,
      submit,
    ),
  );

  const refresh = () => {
    const used = [...text.value].length;
    const left = limits.postMaxChars - used;
    count.textContent = `${used} / ${limits.postMaxChars}`;
    count.classList.toggle("over", left < 0);
    const empty = !text.value.trim() && !images.length;
    submit.disabled = left < 0 || empty || form.classList.contains("busy");
    pickLabel.classList.toggle("disabled", images.length >= limits.mediaPerPost);
    picker.disabled = images.length >= limits.mediaPerPost;
  };

  const addImage = (file) => {
    const index = images.length + 1;
    const url = URL.createObjectURL(file);
    const alt = h("input", { id: `alt-${url.slice(-12)}`, type: "text", maxlength: 1000, placeholder: "Describe the image" });
    const progress = h("progress", { max: 1, value: 0, hidden: true, "aria-label": `Upload of image ${index}` });
    const entry = { file, url, alt, progress };
    const remove = h("button", { type: "button", class: "link", "aria-label": `Remove image ${index}` }, "Remove");
    const row = h(
      "li",
      {},
      h("img", { src: url, alt: "" }),
      h("div", { class: "stack" }, h("label", { for: alt.id }, `Alt text for image ${index}`), alt, progress),
      remove,
    );
    remove.addEventListener("click", () => {
      images.splice(images.indexOf(entry), 1);
      URL.revokeObjectURL(url);
      row.remove();
      refresh();
    });
    images.push(entry);
    previews.append(row);
  };

  picker.addEventListener("change", () => {
    const files = [...picker.files];
    picker.value = "";
    const room = limits.mediaPerPost - images.length;
    const refused = files.filter((f) => !IMAGE_TYPES.includes(f.type));
    if (refused.length) showWarning("Only JPEG, PNG, WebP and GIF images can be posted.");
    const accepted = files.filter((f) => IMAGE_TYPES.includes(f.type));
    accepted.slice(0, room).forEach(addImage);
    if (accepted.length > room) showWarning(`At most ${plural(limits.mediaPerPost, "image")} per post.`);
    refresh();
  });
  text.addEventListener("input", refresh);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    form.classList.add("busy");
    refresh();
    const posted = await attempt(() => send());
    form.classList.remove("busy");
    if (posted !== undefined) {
      key = idempotencyKey();
      text.value = "";
      for (const entry of images.splice(0)) URL.revokeObjectURL(entry.url);
      previews.replaceChildren();
      onPosted(posted);
    }
    refresh();
  });

  // Uploads already made are kept for a retry (entry.mediaId), so only what failed goes again.
  const send = async () => {
    const mediaIds = [];
    for (const entry of images) {
      if (!entry.mediaId) {
        entry.progress.hidden = false;
        entry.mediaId = await uploadImage(entry.file, entry.alt.value.trim(), (done) => { entry.progress.value = done; });
      }
      mediaIds.push(entry.mediaId);
    }
    const body = { text: text.value, media_ids: mediaIds, visibility: visibility.value };
    const created = await api("POST", "/v1/posts", { body, headers: { "Idempotency-Key": key } });
    return api("GET", `/v1/posts/${created.post_id}`);
  };

  serverCapabilities().then((found) => { limits = found; refresh(); }, () => {});
  refresh();
  return form;
}
