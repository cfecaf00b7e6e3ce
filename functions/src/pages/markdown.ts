/**
 * User Markdown (calendar purpose, event notes) to HTML: markdown-it without raw HTML, links
 * only to http(s), mailto and relative targets, every link `rel="nofollow ugc noopener"`,
 * headings shifted below the page's own, images without referrer. One instance, compiled
 * once; results cached, since the same purpose is rendered on every page view.
 */
import MarkdownIt, { type Token } from "markdown-it";
import { trusted, type SafeHtml } from "./html.js";

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

const ALLOWED_SCHEMES = new Set(["http", "https", "mailto"]);
const SCHEME = /^([a-z][a-z0-9+.-]*):/;

// markdown-it's own check already refuses javascript:, vbscript:, file: and most data:;
// an allow-list also refuses schemes nobody expects from a calendar (e.g. `intent:`).
const defaultValidateLink = md.validateLink.bind(md);
md.validateLink = (url: string): boolean => {
  if (!defaultValidateLink(url)) return false;
  const scheme = SCHEME.exec(url.trim().toLowerCase());
  return !scheme || ALLOWED_SCHEMES.has(scheme[1]);
};

// The page has h1 (name) and h2 (sections): purpose headings start at h3.
const HEADING_SHIFT = 2;
md.core.ruler.push("shift_headings", (state) => {
  for (const token of state.tokens) {
    if (token.type === "heading_open" || token.type === "heading_close") {
      token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + HEADING_SHIFT)}`;
    }
  }
});

md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  tokens[idx].attrSet("rel", "nofollow ugc noopener");
  return self.renderToken(tokens, idx, options);
};

const defaultImage = md.renderer.rules.image;
md.renderer.rules.image = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet("referrerpolicy", "no-referrer");
  tokens[idx].attrSet("loading", "lazy");
  return defaultImage(tokens, idx, options, env, self);
};

/** The block tokens of `text`, as `renderMarkdown` reads it (links checked the same way). */
export const markdownTokens = (text: string): Token[] => md.parse(text, {});

const CACHE_LIMIT = 500;
const cache = new Map<string, SafeHtml>();

export function renderMarkdown(text: string): SafeHtml {
  const hit = cache.get(text);
  if (hit) return hit;
  const rendered = trusted(md.render(text));
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(text, rendered);
  return rendered;
}
