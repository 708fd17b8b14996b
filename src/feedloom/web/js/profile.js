// A profile: name, avatar, bio, counts, follow / mute / block, the author timeline.

import { api, session } from "./api.js";
import { avatar, h, plural, profileHref } from "./dom.js";
import { pagedList } from "./pager.js";
import { postCard } from "./post.js";
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
  const blocked = h("p", { class: "panel", hidden: true }, `You blocked @${person.username}. Neither of you sees the other's posts.`);

  const actions = mine
    ? [h("a", { href: "#/settings", class: "button secondary" }, "Edit profile")]
    : [
        followButton(person, (on) => {
          person.followers += on ? 1 : -1;
          showFollowers();
        }),
        muteButton(person, false),
        blockButton(person, (on) => {
          blocked.hidden = !on;
          posts.element.hidden = on;
        }),
      ];

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
  await posts.reload();
  return () => posts.destroy();
}
