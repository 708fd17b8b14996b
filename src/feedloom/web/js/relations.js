// Follow, mute and block: idempotent PUT/DELETE on the relation, so a retry is safe.

import { api, session } from "./api.js";
import { confirmAction, h } from "./dom.js";
import { attempt } from "./status.js";

function relationPath(person, relation) {
  return `/v1/users/${person.id}/${relation}`;
}

/** A toggle: `on` says whether the relation stands now. */
function toggle({ person, relation, on, labels, onChange = () => {}, confirm = null, quiet = true }) {
  let state = on;
  const button = h("button", { type: "button", class: `relation ${relation}` });
  const render = () => {
    button.textContent = state ? labels[1] : labels[0];
    button.setAttribute("aria-pressed", String(state));
    button.classList.toggle("secondary", quiet || state);
  };
  // The page can say what changed elsewhere (a block removes the follow).
  button.setRelation = (value) => {
    state = value;
    render();
  };
  button.addEventListener("click", async () => {
    const want = !state;
    if (want && confirm && !(await confirmAction(confirm, labels[0]))) return;
    button.disabled = true;
    const done = await attempt(() => api(want ? "PUT" : "DELETE", relationPath(person, relation)));
    button.disabled = false;
    if (done === undefined) return;
    state = want;
    render();
    onChange(state);
  });
  render();
  return button;
}

export function followButton(person, onChange) {
  if (session.user && session.user.id === person.id) return h("span", { class: "badge" }, "you");
  return toggle({ person, relation: "follow", on: person.followed_by_me, labels: ["Follow", "Following"], onChange, quiet: false });
}

export function muteButton(person, muted, onChange) {
  return toggle({ person, relation: "mute", on: muted, labels: ["Mute", "Unmute"], onChange });
}

export function blockButton(person, blocking, onChange) {
  const name = person.name || person.username;
  return toggle({
    person,
    relation: "block",
    on: blocking,
    labels: ["Block", "Unblock"],
    onChange,
    confirm: `Block ${name}? You will no longer see each other's posts, and follows between you are removed.`,
  });
}
