// A post's text drawn from its facets (mentions, tags, links), as the server parsed it
// when the post was written: this client never parses a post's text or any HTML for
// them. Offsets are Unicode code points, so the text is cut as an array of code points
// (an emoji is one), never by UTF-16 index.

import { h } from "./dom.js";

export function tagHref(name) {
  return `#/tag/${encodeURIComponent(name)}`;
}

/** The text as nodes: plain runs as text nodes, each facet as a safe link. */
export function facetText(text, facets = []) {
  const points = Array.from(text);
  const nodes = [];
  let at = 0;
  for (const facet of facets) {
    if (facet.start < at || facet.end > points.length || facet.start >= facet.end) continue;
    const covered = points.slice(facet.start, facet.end).join("");
    const link = facetLink(facet, covered);
    if (!link) continue;
    nodes.push(points.slice(at, facet.start).join(""), link);
    at = facet.end;
  }
  nodes.push(points.slice(at).join(""));
  return nodes.filter((node) => node !== "");
}

function facetLink(facet, covered) {
  if (facet.type === "mention") {
    return h("a", { href: `#/u/${encodeURIComponent(facet.username)}`, class: "mention" }, covered);
  }
  if (facet.type === "tag") return h("a", { href: tagHref(facet.tag), class: "tag" }, covered);
  if (facet.type === "link" && /^https?:\/\//i.test(facet.url)) {
    return h("a", { href: facet.url, rel: "noopener noreferrer nofollow ugc", target: "_blank" }, covered);
  }
  return null;
}
