/**
 * The embeddable variant of a calendar or view page (`?embed=1`): the lens and its period under
 * a one-line header (the name, the period's arrows, a link to the full page), for an `<iframe>`
 * on another site. Every link but the arrows opens in a new tab (`<base target="_blank">`), so
 * an event, a day or the full page never opens inside a small frame. Only this variant may be
 * framed (page-headers.ts); its answers are cached apart from the full page's.
 */
import type { Request } from "express";
import { escapeHtml, html, type SafeHtml } from "./html.js";
import { lensHref } from "./links.js";
import type { PageModel } from "./model.js";
import type { Period } from "./period.js";
import { zoneLabel } from "./reader-zone.js";

export const isEmbed = (req: Request): boolean => req.query.embed === "1";

const EMBED_PARAM = "&embed=1";

/** Opened links leave the frame; only the arrows (target `_self`) stay inside it. */
export const EMBED_HEAD = html`<base target="_blank">\n`;

export function embedBody(model: PageModel, period: Period, content: SafeHtml): SafeHtml {
  // Every link keeps the reader's zone (`?tz=`, reader-zone.ts) when the snippet names one.
  const href = (date?: string) => lensHref(model.lens, date, model.reader);
  const arrow = (date: string | null, rel: string, label: string, text: string) =>
    date
      ? html`<a href="${href(date)}${EMBED_PARAM}" target="_self" rel="${rel}" \
aria-label="${label}">${text}</a>`
      : "";
  return html`<header class="embed-head">
<div class="embed-title"><h1>${model.title}</h1> <span class="zone">Times in \
${zoneLabel(model.timezone, model.date)}</span> <a href="${href(model.date)}">\
Open the full calendar<span class="visually-hidden"> (opens in a new tab)</span></a></div>
</header>
<main id="main" aria-labelledby="period-heading">
<div class="period">
<h2 id="period-heading">${period.label}</h2>
<nav class="period-nav" aria-label="Dates">\
${arrow(period.prev, "prev", `Previous ${model.lens}`, "←")}\
<a href="${href()}${EMBED_PARAM}" target="_self">Today</a>\
${arrow(period.next, "next", `Next ${model.lens}`, "→")}</nav>
</div>
${content}
</main>`;
}

/** The `<iframe>` to paste into a web page, shown beside the full page's footer; nothing without an address. */
export function embedSnippet(model: PageModel): SafeHtml | "" {
  const url = model.links.url;
  if (!url) return "";
  const snippet = `<iframe src="${url}?embed=1" title="${escapeHtml(model.title)}" \
width="800" height="600"></iframe>`;
  return html`<details class="embed-code">
<summary>Embed this calendar on a web page</summary>
<label for="embed-snippet">Paste this HTML into your page (add <code>&amp;view=week</code> to the address for another lens):</label>
<input id="embed-snippet" class="embed-snippet" type="text" readonly value="${snippet}">
</details>`;
}
