// Settings: profile (name, bio, avatar), default feed order, followed tags (tags.js),
// blocked and muted accounts, muted words (feeds.js),
// sessions (settings_lists.js), password, account deletion.
// Password change and deletion appear only when the server's API offers them.

import { ApiError, api, serverCapabilities, session } from "./api.js";
import { avatar, confirmAction, h } from "./dom.js";
import { mutedWordsSection } from "./feeds.js";
import { IMAGE_TYPES, uploadImage } from "./media.js";
import { notificationSwitches } from "./notifications.js";
import { relationListSection, sessionsSection } from "./settings_lists.js";
import { attempt, showInfo, showWarning } from "./status.js";
import { followedTagsSection } from "./tags.js";

export async function settingsView(main) {
  const [me, preferences, capabilities] = await Promise.all([
    api("GET", "/v1/me"),
    api("GET", "/v1/me/settings"),
    serverCapabilities().catch(() => ({ bioMaxChars: 300 })),
  ]);
  main.replaceChildren(
    h("h1", {}, "Settings"),
    profileForm(me, capabilities),
    orderForm(preferences),
    followedTagsSection(),
    notificationSwitches(preferences),
    relationListSection("block"),
    relationListSection("mute"),
    mutedWordsSection(),
    sessionsSection(),
    offered(passwordForm(me.username), capabilities.changePassword),
    offered(deleteForm(me.username), capabilities.deleteAccount),
  );
}

function profileForm(me, capabilities) {
  const name = h("input", { id: "set-name", value: me.name, maxlength: 64, required: true, autocomplete: "nickname" });
  const bio = h("textarea", { id: "set-bio", rows: 3, maxlength: capabilities.bioMaxChars || 300 });
  bio.value = me.bio || "";
  const picture = h("span", { class: "avatar-slot" }, avatar(me, "large"));
  const file = h("input", { id: "set-avatar", type: "file", accept: IMAGE_TYPES.join(",") });
  const progress = h("progress", { max: 1, value: 0, hidden: true, "aria-label": "Avatar upload" });
  const remove = h("button", { type: "button", class: "secondary", hidden: !me.avatar }, "Remove avatar");
  const save = h("button", { type: "submit", class: "primary" }, "Save profile");

  const apply = (profile) => {
    picture.replaceChildren(avatar(profile, "large"));
    remove.hidden = !profile.avatar;
    session.remember({ id: profile.id, username: profile.username });
  };
  file.addEventListener("change", async () => {
    const chosen = file.files[0];
    file.value = "";
    if (!chosen) return;
    if (!IMAGE_TYPES.includes(chosen.type)) {
      showWarning("Choose a JPEG, PNG, WebP or GIF image.");
      return;
    }
    progress.hidden = false;
    const profile = await attempt(async () => {
      const mediaId = await uploadImage(chosen, "", (done) => { progress.value = done; });
      return api("PATCH", "/v1/me", { body: { avatar_media_id: mediaId } });
    });
    progress.hidden = true;
    if (profile !== undefined) {
      apply(profile);
      showInfo("Avatar updated.");
    }
  });
  remove.addEventListener("click", async () => {
    const profile = await attempt(() => api("PATCH", "/v1/me", { body: { avatar_media_id: null } }));
    if (profile !== undefined) apply(profile);
  });
  const form = h(
    "form",
    { class: "panel stack", "aria-labelledby": "set-profile" },
    h("h2", { id: "set-profile" }, "Profile"),
    h("div", { class: "row" }, picture, h("div", { class: "stack" }, h("label", { for: "set-avatar" }, "Avatar image"), file, progress), remove),
    h("label", { for: "set-name" }, "Display name"),
    name,
    h("label", { for: "set-bio" }, "Bio"),
    bio,
    h("div", { class: "row end" }, save),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    save.disabled = true;
    const profile = await attempt(() => api("PATCH", "/v1/me", { body: { display_name: name.value.trim(), bio: bio.value } }));
    save.disabled = false;
    if (profile !== undefined) {
      apply(profile);
      showInfo("Profile saved.");
    }
  });
  return form;
}

function orderForm(preferences) {
  const choices = [
    ["", `Service default (${preferences.effective_feed_order === "ranked" && preferences.feed_order === null ? "for you" : "latest"})`],
    ["chronological", "Latest first"],
    ["ranked", "For you (ranked)"],
  ];
  const current = preferences.feed_order || "";
  const form = h(
    "form",
    { class: "panel stack" },
    h(
      "fieldset",
      {},
      h("legend", {}, "Home feed order"),
      choices.map(([value, label]) =>
        h("label", { class: "choice" }, h("input", { type: "radio", name: "order", value, checked: value === current }), " ", label),
      ),
    ),
    h("div", { class: "row end" }, h("button", { type: "submit", class: "primary" }, "Save order")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = form.querySelector("input[name=order]:checked").value;
    const saved = await attempt(() => api("PUT", "/v1/me/settings", { body: { feed_order: value || null } }));
    if (saved !== undefined) showInfo("Feed order saved.");
  });
  return form;
}

const UNOFFERED = "This server does not offer this yet.";

/** A form whose endpoint this server's API lacks is shown disabled, saying so. */
function offered(form, available) {
  if (available !== false) return form;
  for (const control of form.querySelectorAll("input, button")) control.disabled = true;
  form.append(h("p", { class: "hint" }, UNOFFERED));
  return form;
}

/** A form for an endpoint another server may not have: on 404/405 it says so and hides. */
async function optional(form, request) {
  try {
    await request();
    return true;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 405)) {
      offered(form, false);
      return false;
    }
    if (!(error instanceof ApiError && error.status === 401)) showWarning(error.message);
    return false;
  }
}

/** For password managers: which account a password form is for. */
function accountField(username) {
  return h("input", { type: "text", autocomplete: "username", value: username, hidden: true, "aria-hidden": "true", tabindex: "-1" });
}

function passwordForm(username) {
  const current = h("input", { id: "pw-current", type: "password", required: true, autocomplete: "current-password" });
  const next = h("input", { id: "pw-new", type: "password", required: true, minlength: 8, maxlength: 256, autocomplete: "new-password" });
  const form = h(
    "form",
    { class: "panel stack", "aria-labelledby": "pw-title" },
    h("h2", { id: "pw-title" }, "Change password"),
    accountField(username),
    h("label", { for: "pw-current" }, "Current password"),
    current,
    h("label", { for: "pw-new" }, "New password (at least 8 characters)"),
    next,
    h("div", { class: "row end" }, h("button", { type: "submit", class: "primary" }, "Change password")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { current_password: current.value, new_password: next.value };
    if (await optional(form, () => api("PUT", "/v1/me/password", { body }))) {
      current.value = next.value = "";
      showInfo("Password changed. Other sessions were signed out.");
    }
  });
  return form;
}

function deleteForm(username) {
  const password = h("input", { id: "del-password", type: "password", required: true, autocomplete: "current-password" });
  const form = h(
    "form",
    { class: "panel stack danger-zone", "aria-labelledby": "del-title" },
    h("h2", { id: "del-title" }, "Delete account"),
    accountField(username),
    h("p", {}, "Your posts, follows, likes and comments are removed. This cannot be undone."),
    h("label", { for: "del-password" }, "Password"),
    password,
    h("div", { class: "row end" }, h("button", { type: "submit", class: "danger" }, "Delete my account")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!(await confirmAction("Delete your account for good?", "Delete account"))) return;
    if (await optional(form, () => api("DELETE", "/v1/me", { body: { password: password.value } }))) {
      session.clear();
      location.hash = "#/login";
    }
  });
  return form;
}
