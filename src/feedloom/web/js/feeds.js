// More than one feed (docs/FEEDS.md): the switcher above the home feed (Home, lists,
// saved feeds), a list's page (its feed, members, settings), the lists page, the
// "new feed" form over sources and filters, a saved feed's page, "add to list" on a
// profile, and muted words in settings.

import { ApiError, api, idempotencyKey } from "./api.js";
import { confirmAction, h } from "./dom.js";
import { pagedList } from "./pager.js";
import { postCard } from "./post.js";
import { attempt, showInfo } from "./status.js";

/** Links to every feed of the reader: Home, pinned saved feeds, lists, other feeds. */
export async function feedSwitcher(current) {
  const [lists, feeds] = await Promise.all([
    api("GET", "/v1/lists").catch(() => ({ items: [] })),
    api("GET", "/v1/me/feeds").catch(() => ({ items: [] })),
  ]);
  const saved = [...feeds.items.filter((f) => f.pinned), ...feeds.items.filter((f) => !f.pinned)];
  const link = (href, label) => h("a", { href, class: "feed-link", "aria-current": href === current ? "page" : false }, label);
  return h(
    "nav",
    { class: "feed-switcher", "aria-label": "Feeds" },
    link("#/", "Home"),
    saved.map((f) => link(`#/feeds/${f.id}`, `${f.pinned ? "★ " : ""}${f.name}`)),
    lists.items.map((l) => link(`#/lists/${l.id}`, l.title)),
    link("#/lists", "Lists…"),
    link("#/feeds/new", "+ New feed"),
  );
}

function feedList(label, path) {
  return pagedList({
    label,
    emptyText: "Nothing in this feed yet.",
    fetchPage: (cursor) => {
      const query = new URLSearchParams({ limit: "20" });
      if (cursor) query.set("cursor", cursor);
      return api("GET", `${path}?${query}`);
    },
    renderItem: (item) => postCard(item),
  });
}

export async function listsView(main) {
  const lists = await api("GET", "/v1/lists");
  const title = h("input", { id: "list-title", maxlength: 64, required: true });
  const exclusive = h("input", { id: "list-exclusive", type: "checkbox" });
  const form = h(
    "form",
    { class: "panel stack", "aria-labelledby": "new-list" },
    h("h2", { id: "new-list" }, "New list"),
    h("label", { for: "list-title" }, "Title"),
    title,
    h("label", { class: "choice" }, exclusive, " Exclusive: members' posts leave your home feed"),
    h("div", { class: "row end" }, h("button", { type: "submit", class: "primary" }, "Create list")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { title: title.value.trim(), exclusive: exclusive.checked };
    const made = await attempt(() => api("POST", "/v1/lists", { body, headers: { "Idempotency-Key": idempotencyKey() } }));
    if (made !== undefined) location.hash = `#/lists/${made.id}`;
  });
  main.replaceChildren(
    await feedSwitcher("#/lists"),
    h("h1", {}, "Lists"),
    form,
    h(
      "ul",
      { class: "panel lists", "aria-label": "Your lists" },
      lists.items.length ? lists.items.map((l) => h("li", {}, h("a", { href: `#/lists/${l.id}` }, l.title), ` · ${l.members} members${l.exclusive ? " · exclusive" : ""}`)) : h("li", {}, "No lists yet. Add people from their profile."),
    ),
  );
}

export async function listView(main, listId) {
  const [found, members] = await Promise.all([api("GET", `/v1/lists/${listId}`), api("GET", `/v1/lists/${listId}/members`)]);
  const feed = feedList(`List ${found.title}`, `/v1/lists/${listId}/feed`);
  const people = await Promise.all(members.user_ids.map((id) => api("GET", `/v1/users/${id}`).catch(() => null)));
  const memberItems = people.filter(Boolean).map((person) => {
    const remove = h("button", { type: "button", class: "secondary remove-member" }, "Remove");
    const item = h("li", { class: "member", dataset: { userId: person.id } }, `${person.name} @${person.username} `, remove);
    remove.addEventListener("click", async () => {
      const done = await attempt(() => api("DELETE", `/v1/lists/${listId}/members/${person.id}`));
      if (done !== undefined) {
        item.remove();
        await feed.reload();
      }
    });
    return item;
  });
  const exclusive = h("input", { id: "list-exclusive", type: "checkbox", checked: found.exclusive });
  const replies = h("select", { id: "list-replies" }, [["list", "Replies to list members"], ["followed", "Replies to anyone you follow"], ["none", "No replies"]].map(([value, label]) => h("option", { value, selected: value === found.replies }, label)));
  const save = async () => {
    const changed = await attempt(() => api("PATCH", `/v1/lists/${listId}`, { body: { exclusive: exclusive.checked, replies: replies.value } }));
    if (changed !== undefined) {
      showInfo("List saved.");
      await feed.reload();
    }
  };
  exclusive.addEventListener("change", save);
  replies.addEventListener("change", save);
  const remove = h("button", { type: "button", class: "danger" }, "Delete list");
  remove.addEventListener("click", async () => {
    if (!(await confirmAction(`Delete the list ${found.title}? Its members stay followed.`, "Delete"))) return;
    if ((await attempt(() => api("DELETE", `/v1/lists/${listId}`))) !== undefined) location.hash = "#/lists";
  });
  main.replaceChildren(
    await feedSwitcher(`#/lists/${listId}`),
    h("h1", {}, found.title),
    h(
      "details",
      { class: "panel list-settings" },
      h("summary", {}, `Members and settings (${memberItems.length})`),
      h("ul", { class: "members" }, memberItems.length ? memberItems : h("li", {}, "No members yet: add people from their profile.")),
      h("label", { class: "choice" }, exclusive, " Exclusive: members' posts leave your home feed"),
      h("label", { for: "list-replies" }, "Replies shown"),
      replies,
      h("div", { class: "row end" }, remove),
    ),
    feed.element,
  );
  await feed.reload();
  return () => feed.destroy();
}

export async function savedFeedView(main, feedId) {
  const found = await api("GET", `/v1/feeds/${feedId}`);
  const feed = feedList(`Feed ${found.name}`, `/v1/feeds/${feedId}/items`);
  const remove = h("button", { type: "button", class: "secondary" }, "Delete feed");
  remove.addEventListener("click", async () => {
    if (!(await confirmAction(`Delete the feed ${found.name}?`, "Delete"))) return;
    if ((await attempt(() => api("DELETE", `/v1/feeds/${feedId}`))) !== undefined) location.hash = "#/";
  });
  const pin = h("button", { type: "button", class: "secondary", "aria-pressed": String(found.pinned) }, found.pinned ? "Unpin" : "Pin");
  pin.addEventListener("click", async () => {
    const mine = await api("GET", "/v1/me/feeds");
    const feeds = mine.items.map((f) => ({ id: f.id, pinned: f.id === feedId ? !found.pinned : f.pinned }));
    if ((await attempt(() => api("PUT", "/v1/me/feeds", { body: { feeds } }))) !== undefined) location.reload();
  });
  main.replaceChildren(
    await feedSwitcher(`#/feeds/${feedId}`),
    h("h1", {}, found.name),
    h("p", { class: "handle" }, `${found.sources.join(", ")}${describeFilters(found.filters)}`),
    h("div", { class: "row" }, pin, remove),
    feed.element,
  );
  await feed.reload().catch((error) => {
    // A generator that failed or was slow: say so where the feed would be.
    if (!(error instanceof ApiError)) throw error;
    feed.element.replaceChildren(h("p", { class: "panel form-error" }, `This feed could not be read: ${error.message}`));
  });
  return () => feed.destroy();
}

function describeFilters(filters) {
  const on = [["media_only", "media only"], ["no_replies", "no replies"], ["no_reposts", "no reposts"]].filter(([key]) => filters[key]).map(([, label]) => label);
  if (filters.muted_words.length) on.push(`muting ${filters.muted_words.join(", ")}`);
  return on.length ? ` · ${on.join(" · ")}` : "";
}

export async function newFeedView(main) {
  const lists = await api("GET", "/v1/lists");
  const name = h("input", { id: "feed-name", maxlength: 64, required: true });
  const home = h("input", { type: "checkbox", name: "source", value: "home", checked: true });
  const listBoxes = lists.items.map((l) => h("label", { class: "choice" }, h("input", { type: "checkbox", name: "source", value: `list:${l.id}` }), ` List: ${l.title}`));
  const generator = h("input", { id: "feed-generator", type: "url", placeholder: "https://… (a registered generator)" });
  const flag = (key, label) => h("label", { class: "choice" }, h("input", { type: "checkbox", name: key }), ` ${label}`);
  const words = h("input", { id: "feed-words", placeholder: "comma-separated" });
  const order = h("select", { id: "feed-order" }, [["", "Your home order"], ["chronological", "Latest first"], ["ranked", "For you (ranked)"]].map(([value, label]) => h("option", { value }, label)));
  const error = h("p", { class: "form-error", role: "alert", hidden: true });
  const form = h(
    "form",
    { class: "panel stack new-feed", "aria-labelledby": "new-feed" },
    h("h1", { id: "new-feed" }, "New feed"),
    h("label", { for: "feed-name" }, "Name"),
    name,
    h("fieldset", {}, h("legend", {}, "Sources"), h("label", { class: "choice" }, home, " Home (people you follow)"), listBoxes, h("label", { for: "feed-generator" }, "Or a generator (alone)"), generator),
    h("fieldset", {}, h("legend", {}, "Filters"), flag("media_only", "Only posts with images"), flag("no_replies", "No replies"), flag("no_reposts", "No reposts"), h("label", { for: "feed-words" }, "Hide posts with these words"), words),
    h("label", { for: "feed-order" }, "Order"),
    order,
    error,
    h("div", { class: "row end" }, h("button", { type: "submit", class: "primary" }, "Save feed")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const checked = (key) => form.querySelector(`input[name=${key}]`).checked;
    const uri = generator.value.trim();
    const sources = uri ? [`generator:${uri}`] : [...form.querySelectorAll("input[name=source]:checked")].map((box) => box.value);
    const body = {
      name: name.value.trim(),
      sources,
      filters: {
        media_only: checked("media_only"),
        no_replies: checked("no_replies"),
        no_reposts: checked("no_reposts"),
        muted_words: words.value.split(",").map((w) => w.trim()).filter(Boolean),
      },
      order: order.value || null,
    };
    error.hidden = true;
    try {
      const made = await api("POST", "/v1/feeds", { body, headers: { "Idempotency-Key": idempotencyKey() } });
      location.hash = `#/feeds/${made.id}`;
    } catch (failure) {
      if (!(failure instanceof ApiError) || failure.status === 401) throw failure;
      error.textContent = failure.message;
      error.hidden = false;
    }
  });
  main.replaceChildren(await feedSwitcher("#/feeds/new"), form);
}

/** "Add to list" on the profile of someone the reader follows. */
export async function addToList(person) {
  const lists = await api("GET", "/v1/lists").catch(() => ({ items: [] }));
  const select = h("select", { class: "add-to-list", "aria-label": `Add ${person.name || person.username} to a list` }, h("option", { value: "" }, "Add to list…"), lists.items.map((l) => h("option", { value: l.id }, l.title)));
  select.addEventListener("change", async () => {
    const listId = select.value;
    if (!listId) return;
    select.disabled = true;
    const done = await attempt(() => api("PUT", `/v1/lists/${listId}/members/${person.id}`));
    select.disabled = false;
    select.value = "";
    if (done !== undefined) showInfo(done.changed ? "Added to the list." : "Already on that list.");
  });
  return lists.items.length ? select : h("a", { href: "#/lists", class: "button secondary" }, "Make a list");
}

/** Settings: words hidden in every feed and thread. */
export function mutedWordsSection() {
  const field = h("textarea", { id: "muted-words", rows: 3, placeholder: "one word or phrase per line" });
  const form = h(
    "form",
    { class: "panel stack", "aria-labelledby": "set-muted-words" },
    h("h2", { id: "set-muted-words" }, "Muted words"),
    h("label", { for: "muted-words" }, "Posts with these words are hidden in every feed and thread"),
    field,
    h("div", { class: "row end" }, h("button", { type: "submit", class: "primary" }, "Save muted words")),
  );
  api("GET", "/v1/me/muted_words").then((found) => { field.value = found.words.join("\n"); }, () => {});
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const words = field.value.split("\n").map((w) => w.trim()).filter(Boolean);
    const saved = await attempt(() => api("PUT", "/v1/me/muted_words", { body: { words } }));
    if (saved !== undefined) {
      field.value = saved.words.join("\n");
      showInfo("Muted words saved.");
    }
  });
  return form;
}
