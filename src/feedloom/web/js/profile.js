// A profile: name, avatar, bio, counts, follow / mute / block, the author timeline.

import { api, session } from "./api.js";
import { avatar, h, plural, profileHref } from "./dom.js";
import { pagedList } from "./pager.js";
import { postCard } from "./post.js";
import { addToList } from "./feeds.js";
import { blockButton, followButton, muteButton } from "./relations.js";

export async function profileView(main, username) {
  const person = await api("GET", `/v1/users/lookup?username=${encodeURIComponent(username)}`);
  const mine = session.user && session.user.id === person.id;
  const followers = h("a", { href: profileHref(person.username, "followers") });
  const showFollowers = () => { followers.textContent = plural(person.followers, "follower"); };
  showFollowers();
  const posts = pagedList({
    label: `Posts by ${person.name || person.username}`,
    emptyText: "No posts yet.",
    fetchPage: (cursor) => {
      const params = new URLSearchParams({ limit: "20" });
      if (cursor) params.set("cursor", cursor);
      return api("GET", `/v1/users/${person.id}/posts?${params}`);
    },
    renderItem: (item) => postCard(item),
  });
  // The relations come with the profile, as stored, so a reload shows the truth.
  const relation = { ...(person.relation || {}) };
  const blocked = h("p", { class: "panel", hidden: !relation.blocking }, `You blocked @${person.username}. Neither of you sees the other's posts.`);
  posts.element.hidden = Boolean(relation.blocking);
  let actions = [h("a", { href: "#/settings", class: "button secondary" }, "Edit profile")];
  if (!mine) {
    const follow = followButton(person, (on) => {
      relation.following = on;
      person.followers += on ? 1 : -1;
      showFollowers();
    });
    const mute = muteButton(person, Boolean(relation.muting));
    const showBlocked = (on) => {
      blocked.hidden = !on;
      posts.element.hidden = on;
      follow.hidden = mute.hidden = on;
    };
    const block = blockButton(person, Boolean(relation.blocking), async (on) => {
      // A block removes the follows both ways: the buttons and count say so at once.
      if (on && relation.following) {
        person.followers -= 1;
        showFollowers();
      }
      Object.assign(relation, { following: false, blocking: on });
      if (follow.setRelation) follow.setRelation(false);
      showBlocked(on);
      if (!on) await posts.reload();
    });
    showBlocked(Boolean(relation.blocking));
    actions = [follow, mute, block];
    if (relation.following) actions.push(await addToList(person));
  }

  main.replaceChildren(
    h(
      "section",
      { class: "profile panel", "aria-labelledby": "profile-name" },
      h("div", { class: "profile-head" }, avatar(person, "large"), h("div", { class: "who" }, h("h1", { id: "profile-name" }, person.name || person.username), h("span", { class: "handle" }, `@${person.username}`), person.follows_me ? h("span", { class: "badge" }, "follows you") : null)),
      person.bio ? h("p", { class: "bio" }, person.bio) : null,
      h("p", { class: "counts" }, followers, " · ", h("a", { href: profileHref(person.username, "following") }, `${person.following} following`)),
      h("div", { class: "row" }, actions),
    ),
    blocked,
    h("h2", { class: "visually-hidden" }, "Posts"),
    posts.element,
  );
  if (!relation.blocking) await posts.reload();
  return () => posts.destroy();
}
