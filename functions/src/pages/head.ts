/**
 * What a page's head says about it beyond its title: the favicon (hosting/favicon.svg, served by
 * Hosting and by the local server), a description for search results, and the Open Graph and
 * Twitter tags a chat or social app reads to unfurl a shared link.
 */
import type { EventPageModel } from "./event-load.js";
import { longDate } from "./format.js";
import { html, type SafeHtml } from "./html.js";
import { markdownText } from "./markdown-text.js";

export const FAVICON_PATH = "/favicon.svg";

/** The longest description written: unfurls and search results show about this much. */
const DESCRIPTION_CHARACTERS = 200;

export interface PageMeta {
  /** The page's subject for an unfurl: a calendar's name, an event's name. */
  title: string;
  description: string;
  /** The page's absolute address; absent where it has no address to share (an error). */
  url?: string | null;
}

export function headMeta({ title, description, url }: PageMeta): SafeHtml {
  const said = shortened(description);
  return html`<meta name="description" content="${said}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="Almanac">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${said}">
${url ? html`<meta property="og:url" content="${url}">\n` : ""}<meta name="twitter:card" content="summary">
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
`;
}

/** A Markdown text (a calendar's purpose) as one line of a description. */
export const markdownSummary = (markdown: string): string =>
  markdownText(markdown.slice(0, DESCRIPTION_CHARACTERS * 4)).replace(/\s+/g, " ");

/** An occurrence's page: "Cancelled: Tuesday, December 15, 2026, 10:00–11:00 (Europe/Berlin) · Platform team · its notes". */
export function eventPageMeta(model: EventPageModel): PageMeta {
  const { at, event } = model;
  const times = at.start_time ? `, ${at.start_time}${at.end_time ? `–${at.end_time}` : ""}` : "";
  const state = model.state === "cancelled" ? "Cancelled: " : model.state === "moved away" ? "Moved: " : "";
  const notes = event.notes ? ` · ${markdownSummary(event.notes)}` : "";
  return {
    title: event.name,
    description: `${state}${longDate(at.date)}${times} (${model.timezone}) · ${model.title}${notes}`,
    url: model.url,
  };
}

function shortened(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= DESCRIPTION_CHARACTERS) return line;
  const cut = line.slice(0, DESCRIPTION_CHARACTERS - 1);
  const lastSpace = cut.lastIndexOf(" ");
  return `${lastSpace > DESCRIPTION_CHARACTERS / 2 ? cut.slice(0, lastSpace) : cut}…`;
}
