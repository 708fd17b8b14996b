// Infinite scroll by cursor: the next page loads when the end of the list comes into
// view (or the "Load more" button is pressed, for keyboards and old browsers).

import { h } from "./dom.js";
import { errorPanel } from "./status.js";

// A feed of articles is role "feed"; rows of people with buttons are a plain "list"
// (a feed may hold only articles: axe's aria-required-children). An empty list, or one
// holding an error panel, has no role (a feed or list of nothing is not one).
export function pagedList({ label, fetchPage, renderItem, emptyText, endText = "You're all caught up.", role = "feed" }) {
  const list = h("div", { class: "list", "aria-busy": "false" });
  const named = () => {
    const holds = list.children.length > 0 && !list.querySelector(":scope > .panel");
    if (holds) {
      list.setAttribute("role", role);
      list.setAttribute("aria-label", label);
    } else {
      list.removeAttribute("role");
      list.removeAttribute("aria-label");
    }
  };
  const render = role === "list" ? (item) => h("div", { role: "listitem" }, renderItem(item)) : renderItem;
  const more = h("button", { type: "button", class: "secondary more", hidden: true }, "Load more");
  const end = h("p", { class: "end", hidden: true });
  const element = h("div", { class: "paged" }, list, more, end);
  let cursor = null;
  let loading = null;
  let generation = 0;

  const loadPage = async (first) => {
    const mine = generation;
    list.setAttribute("aria-busy", "true");
    more.disabled = true;
    try {
      const page = await fetchPage(first ? null : cursor);
      if (mine !== generation) return null;
      if (first) list.replaceChildren();
      for (const item of page.items) list.append(render(item));
      cursor = page.next_cursor;
      more.hidden = !cursor;
      end.hidden = Boolean(cursor);
      end.textContent = list.children.length ? endText : emptyText;
      named();
      return page;
    } catch (error) {
      if (mine !== generation) return null;
      more.hidden = true;
      const panel = errorPanel(error, () => { panel.remove(); load(first); });
      if (first) list.replaceChildren(panel);
      else list.append(panel);
      named();
      return null;
    } finally {
      if (mine === generation) {
        list.setAttribute("aria-busy", "false");
        more.disabled = false;
      }
    }
  };

  const load = (first) => {
    if (first) generation += 1;
    else if (loading) return loading;
    loading = loadPage(first).finally(() => { loading = null; });
    return loading;
  };

  more.addEventListener("click", () => load(false));
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting) && cursor && !loading) load(false);
  }, { rootMargin: "600px" });
  observer.observe(more);

  return {
    element,
    list,
    reload: () => load(true),
    prepend: (node) => { list.prepend(node); end.hidden = true; named(); },
    destroy: () => observer.disconnect(),
  };
}
