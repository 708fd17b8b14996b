// A post card: author, time, safe text, images (srcset, lazy), like (optimistic, then
// the server's word), comments, the thread it belongs to (and whom it replies to),
// repost and quote (share.js: also "reposted by" and the quoted post), edit own and the
// "edited" mark with its history (edit.js), delete own, and
// "why am I seeing this" on a ranked feed. Mentions, tags and links come from the
// post's facets (facets.js); a post a followed tag brought says so.

import { api, session } from "./api.js";
import { openComments } from "./comments.js";
import { editButton, editedMark } from "./edit.js";
import { avatar, confirmAction, h, plural, profileHref, timeElement } from "./dom.js";
import { facetText, tagHref } from "./facets.js";
import { openLightbox } from "./lightbox.js";
import { quoteButton, quotedPost, repostButton, repostedBy } from "./share.js";
import { attempt, showError } from "./status.js";

export function postCard(item, options = {}) {
  const { onDeleted = () => {}, onPosted = null } = options;
  // A repost's entry shows its original: delete is for the author's own posts only.
  const mine = session.user && session.user.id === item.author.id;
  const by = item.author.name || item.author.username;
  const label = item.reposted_by ? `Post by ${by}, reposted by ${item.reposted_by.name || "someone"}` : `Post by ${by}`;
  const dataset = { postId: item.post_id, ...(item.repost_id ? { repostId: item.repost_id } : {}) };
  const card = h("article", { class: "post", tabindex: "-1", dataset, "aria-label": label });
  const comments = commentsButton(item, card);
  const parts = [
    recommended(item),
    repostedBy(item),
    byline(item),
    item.in_reply_to ? replyingTo(item.in_reply_to) : null,
    item.text ? h("p", { class: "text" }, facetText(item.text, item.facets)) : null,
    item.media.length ? gallery(item.media) : null,
    quotedPost(item.quote),
    h(
      "div",
      { class: "actions" },
      likeButton(item),
      comments,
      repostButton(item),
      quoteButton(item, card, onPosted),
      h("a", { href: `#/post/${item.post_id}`, class: "thread-link" }, "Thread"),
      mine ? editButton(item, card, (edited) => card.replaceWith(postCard({ ...edited, reposted_by: item.reposted_by, repost_id: item.repost_id }, options))) : null,
      mine ? deleteButton(item, card, onDeleted) : null,
    ),
    item.explain ? why(item.explain) : null,
  ];
  card.append(...parts.filter(Boolean));
  return card;
}

function byline(item) {
  const { author } = item;
  const href = profileHref(author.username);
  return h(
    "header",
    { class: "byline" },
    h("a", { href, class: "avatar-link", tabindex: "-1", "aria-hidden": "true" }, avatar(author)),
    h(
      "div",
      { class: "who" },
      h("a", { href, class: "name" }, author.name || author.username),
      h("span", { class: "handle" }, `@${author.username}`),
    ),
    h(
      "div",
      { class: "when" },
      item.visibility === "followers" ? h("span", { class: "badge", title: "Only followers see this" }, "followers") : null,
      timeElement(item.created_at),
      editedMark(item),
    ),
  );
}

function replyingTo(parent) {
  return h(
    "p",
    { class: "replying-to" },
    "Replying to ",
    h("a", { href: `#/post/${parent.post_id}` }, parent.author.name || "a post"),
  );
}

function gallery(media) {
  const sizes = media.length > 1 ? "(max-width: 640px) 50vw, 300px" : "(max-width: 640px) 100vw, 600px";
  return h("div", { class: `gallery n${media.length}` }, media.map((m) => image(m, sizes)));
}

export function image(media, sizes) {
  const candidates = [...media.sizes, { url: media.url, w: media.w, h: media.h }];
  const fallback = media.sizes.find((s) => s.w >= 480) || media;
  const link = h("a", { href: media.url, class: "media", "aria-haspopup": "dialog" });
  link.addEventListener("click", (event) => {
    event.preventDefault();
    openLightbox(media, link);
  });
  if (!media.alt) link.setAttribute("aria-label", "Open the image");
  const picture = h("img", {
    src: fallback.url,
    srcset: candidates.map((c) => `${c.url} ${c.w}w`).join(", "),
    sizes,
    width: media.w,
    height: media.h,
    alt: media.alt || "",
    loading: "lazy",
    decoding: "async",
  });
  picture.style.maxWidth = `${media.w}px`; // never drawn larger than it is
  link.append(picture);
  return link;
}

function likeButton(item) {
  let liked = item.liked_by_me;
  let serverLiked = liked;
  let syncing = false;
  const base = item.likes - (liked ? 1 : 0);
  const count = h("span", { class: "count" });
  const button = h("button", { type: "button", class: "like", "aria-pressed": String(liked) }, h("span", { "aria-hidden": "true" }, "♥"), " ", count);
  const render = () => {
    button.setAttribute("aria-pressed", String(liked));
    count.textContent = plural(Math.max(0, base + (liked ? 1 : 0)), "like");
  };
  // Clicks change what the person wants at once; one request at a time brings the
  // server there, and the server's answer is what stays.
  const sync = async () => {
    if (syncing) return;
    syncing = true;
    try {
      while (serverLiked !== liked) {
        const answer = await api(liked ? "PUT" : "DELETE", `/v1/posts/${item.post_id}/like`);
        serverLiked = answer.liked;
      }
    } catch (error) {
      liked = serverLiked;
      render();
      showError(error);
    } finally {
      syncing = false;
    }
  };
  button.addEventListener("click", () => {
    liked = !liked;
    render();
    sync();
  });
  render();
  return button;
}

function commentsButton(item, card) {
  let count = item.comments;
  let panel = null;
  const button = h("button", { type: "button", class: "comments-toggle", "aria-expanded": "false" });
  const render = () => {
    button.textContent = plural(count, "comment");
  };
  button.addEventListener("click", () => {
    const open = button.getAttribute("aria-expanded") === "true";
    button.setAttribute("aria-expanded", String(!open));
    if (open) {
      panel.hidden = true;
      return;
    }
    if (!panel) {
      panel = openComments(item.post_id, (delta) => {
        count = Math.max(0, count + delta);
        render();
      });
      card.append(panel);
    }
    panel.hidden = false;
    const field = panel.querySelector("textarea");
    if (field) field.focus();
  });
  render();
  return button;
}

function deleteButton(item, card, onDeleted) {
  return h(
    "button",
    {
      type: "button",
      class: "link danger-text",
      onclick: async () => {
        if (!(await confirmAction("Delete this post? This cannot be undone.", "Delete"))) return;
        const done = await attempt(() => api("DELETE", `/v1/posts/${item.post_id}`));
        if (done === undefined) return;
        card.remove();
        onDeleted(item);
      },
    },
    "Delete",
  );
}

/** Why a post from someone you do not follow is in your feed (the item's `reason`). */
function recommended(item) {
  const reason = item.reason;
  if (!reason) return null;
  let mark = "↗ ";
  let text = "Trending today";
  if (reason.liked_by) {
    const names = reason.liked_by.map((person) => person.name || person.username);
    mark = "♥ ";
    text = names.length ? `Liked by ${listed(names)}, whom you follow` : "Liked by people you follow";
  } else if (reason.tag) {
    mark = "# ";
    text = ["Because you follow ", h("a", { href: tagHref(reason.tag) }, `#${reason.tag}`)];
  } else if (!reason.trending) {
    return null;
  }
  return h("p", { class: "recommended" }, h("span", { "aria-hidden": "true" }, mark), text);
}

function listed(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

const SOURCES = {
  pushed: "You follow the author; the post was delivered to your timeline.",
  pulled: "You follow this popular account; its posts are merged in when you read.",
  own: "This is your own post.",
  rebuilt: "You follow the author; your timeline was rebuilt from their posts.",
  archive: "An older post from an account you follow.",
  liked_by: "You do not follow the author: people you follow liked this post.",
  trending: "You do not follow the author: this post is among today's most liked and discussed.",
};

function why(explain) {
  const lines = [h("p", {}, SOURCES[explain.source] || `Source: ${explain.source}.`)];
  const parts = explain.components;
  if (parts && explain.score !== null) {
    lines.push(
      h(
        "p",
        {},
        `Score ${explain.score.toFixed(3)} = (closeness ${parts.affinity_term.toFixed(3)} + engagement ${parts.engagement_term.toFixed(3)}) × freshness ${parts.decay.toFixed(3)}.`,
      ),
      h(
        "p",
        {},
        `You interact with this author at ${(parts.affinity * 100).toFixed(0)} %; ${plural(parts.likes, "like")} and ${plural(parts.comments, "comment")}; posted ${parts.age_hours.toFixed(1)} h ago.`,
      ),
    );
  }
  return h("details", { class: "why" }, h("summary", {}, "Why am I seeing this?"), lines);
}
