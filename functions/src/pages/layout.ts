/** The page shell (head, masthead, lens tabs, period bar, footer) around a lens, and error pages. */
import type { Lens } from "../domain/types.js";
import { html, type SafeHtml } from "./html.js";
import { renderMonth } from "./lenses/month.js";
import { renderSchedule } from "./lenses/schedule.js";
import { renderTimeline } from "./lenses/timeline.js";
import { renderWeek } from "./lenses/week.js";
import { lensHref } from "./links.js";
import { renderMarkdown } from "./markdown.js";
import { longDate } from "./format.js";
import { embedBody, embedSnippet, EMBED_HEAD } from "./embed.js";
import { headMeta, markdownSummary, type PageMeta } from "./head.js";
import type { NearbyOccurrence, PageModel } from "./model.js";
import { periodFor, type Period } from "./period.js";
import { STYLESHEET_NAME } from "./style.js";
import { legendHtml, pageColoursLink } from "./legend.js";
import { unknownZoneNote, zoneForm, zoneLabel } from "./reader-zone.js";
import { subscribeControl } from "./subscribe-control.js";

const LENS_NAMES: Record<Lens, string> = { month: "Month", week: "Week", schedule: "Schedule", timeline: "Timeline" };
const PERIOD_NAMES: Record<Lens, string> = {
  month: "month",
  week: "week",
  schedule: "four weeks",
  timeline: "three months",
};

const LENS_RENDERERS: Record<Lens, (model: PageModel, period: Period) => SafeHtml> = {
  month: renderMonth,
  week: renderWeek,
  schedule: renderSchedule,
  timeline: renderTimeline,
};

/** Pages under /v/ take their stylesheet from /v/, so a view page never points at /c/. */
export const stylesheetPath = (area: "c" | "v"): string => `/${area}/_assets/${STYLESHEET_NAME}`;

export interface DocumentParts {
  title: string;
  area: "c" | "v";
  noindex: boolean;
  /** The description, Open Graph and Twitter tags, and the favicon (head.ts). */
  meta: PageMeta;
  head?: SafeHtml | string;
  body: SafeHtml;
}

export function documentHtml({ title, area, noindex, meta, head = "", body }: DocumentParts): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
${noindex ? html`<meta name="robots" content="noindex">\n` : ""}<title>${title}</title>
<link rel="stylesheet" href="${stylesheetPath(area)}">
${headMeta(meta)}${head}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${body}
</body>
</html>
`.value;
}

function masthead(model: PageModel): SafeHtml {
  const facts = [
    html`<li>Times in ${zoneLabel(model.timezone, model.date)}</li>`,
    model.links.subscribe ? html`<li>${subscribeControl(model.links.subscribe)}</li>` : "",
    model.links.purposeMarkdown && model.purpose
      ? html`<li><a href="${model.links.purposeMarkdown}">Purpose as Markdown</a></li>`
      : "",
  ];
  return html`<header class="masthead"><div class="wrap">
<p class="eyebrow">${eyebrow(model)}</p>
<h1>${model.title}</h1>
${model.purpose ? html`<div class="purpose">${renderMarkdown(model.purpose)}</div>` : ""}
<ul class="facts">${facts}</ul>
${zoneForm(model.reader, { view: model.lens, date: model.date }, `?view=${model.lens}&date=${model.date}`)}
</div></header>`;
}

const eyebrow = (model: PageModel): SafeHtml | string => {
  const back = model.links.back;
  if (back) return html`<a href="${back.href}">${back.label}</a>`;
  return model.kind === "calendar" ? "Calendar" : "Shared calendar";
};

function lensTabs(model: PageModel): SafeHtml | string {
  if (model.lenses.length < 2) return "";
  const tabs = model.lenses.map((lens) => {
    const current = lens === model.lens ? html` aria-current="page"` : "";
    return html`<li><a href="${lensHref(lens, model.date, model.reader)}"${current}>${LENS_NAMES[lens]}</a></li>`;
  });
  return html`<nav class="lenses" aria-label="Views"><ul>${tabs}</ul></nav>`;
}

function periodBar(model: PageModel, period: Period): SafeHtml {
  const what = PERIOD_NAMES[model.lens];
  const prev = period.prev
    ? html`<a href="${lensHref(model.lens, period.prev, model.reader)}" rel="prev">← \
<span class="visually-hidden">Previous ${what}</span><span aria-hidden="true">Previous</span></a>`
    : "";
  const next = period.next
    ? html`<a href="${lensHref(model.lens, period.next, model.reader)}" rel="next">\
<span class="visually-hidden">Next ${what}</span><span aria-hidden="true">Next</span> →</a>`
    : "";
  return html`<div class="period">
<h2 id="period-heading">${period.label}</h2>
<nav class="period-nav" aria-label="Dates">${prev}<a href="${lensHref(model.lens, undefined, model.reader)}">Today</a>${next}
<form class="jump" method="get"><input type="hidden" name="view" value="${model.lens}">\
${model.reader.tz ? html`<input type="hidden" name="tz" value="${model.reader.tz}">` : ""}\
<label for="jump-date">Go to</label>\
<input id="jump-date" type="date" name="date" value="${model.date}" min="1900-01-01" max="2199-12-31">\
<button type="submit">Go</button></form>
</nav>
</div>`;
}

const count = (n: number): string => n.toLocaleString("en-US");

/** What the page's budgets (budgets.ts) left undrawn, and where to find it; nothing when all is drawn. */
function budgetNote(model: PageModel): SafeHtml | string {
  const { occurrences, someday } = model.omitted;
  if (occurrences === 0 && someday === 0) return "";
  const parts: SafeHtml[] = [];
  if (occurrences > 0) {
    const where = model.links.occurrencesApi
      ? html` <a href="${model.links.occurrencesApi}">The API lists them all</a>, page by page.`
      : html` Pick a shorter period to see more of each day.`;
    parts.push(
      html`This period holds more than one page draws: it shows ${count(model.occurrences.length)} occurrences, \
each day's earliest events; ${count(occurrences)} more occurrences are not drawn.${where}`,
    );
  }
  if (someday > 0)
    parts.push(
      html`${parts.length ? " " : ""}The oldest ${count(model.someday.length)} someday plans are listed; \
${count(someday)} more someday plans are not.`,
    );
  return html`<p class="budget-note" role="note">${parts}</p>`;
}

/** A period with nothing dated: the nearest occurrences after and before it, one click away. */
function elsewhereNote(model: PageModel): SafeHtml | string {
  const near = model.elsewhere;
  if (!near) return "";
  const link = (label: string, o: NearbyOccurrence) =>
    html` ${label} <a href="${lensHref(model.lens, o.date, model.reader)}">${o.name}, ${longDate(o.date)}</a>.`;
  return html`<p class="budget-note" role="note">Nothing in this period.\
${near.next ? link("Next:", near.next) : ""}${near.previous ? link("Before it:", near.previous) : ""}</p>`;
}

/** A calendar or share-view page in its lens; `embed`, its variant for a frame on another site (embed.ts). */
export function renderPage(model: PageModel, embed = false): string {
  const period = periodFor(model.lens, model.date);
  const area = model.kind === "calendar" ? "c" : "v";
  const feedLink = model.links.feed
    ? html`<link rel="alternate" type="text/calendar" title="${model.title}" href="${model.links.feed}">\n`
    : "";
  const published = model.kind === "calendar" && !model.links.back;
  const credit = published ? html`Published with <a href="/">Almanac</a>, a calendar for agents. ` : "";
  const content = html`${budgetNote(model)}${elsewhereNote(model)}${LENS_RENDERERS[model.lens](model, period)}
${legendHtml(model)}`;
  const body = embed
    ? html`<div class="wrap embed">${embedBody(model, period, content)}</div>`
    : html`${masthead(model)}
<div class="wrap">
${lensTabs(model)}
<main id="main" aria-labelledby="period-heading">
${periodBar(model, period)}
${unknownZoneNote(model.reader)}${content}
</main>
<footer>${credit}All times ${model.timezone}.${embedSnippet(model)}</footer>
</div>`;
  return documentHtml({
    title: `${model.title} · ${period.label}`,
    area,
    noindex: model.noindex,
    meta: { title: model.title, description: pageDescription(model), url: model.links.url },
    head: html`${feedLink}${pageColoursLink(model)}${embed ? EMBED_HEAD : ""}`,
    body,
  });
}

function pageDescription(model: PageModel): string {
  if (model.purpose) return markdownSummary(model.purpose);
  const what = model.kind === "calendar" ? "a calendar" : "a shared calendar";
  return `${model.title}: ${what} published with Almanac, to read here or to subscribe to in a calendar app.`;
}

/** An error as a page: the same status code as the API would give, in words for people. */
export function renderErrorPage(
  area: "c" | "v",
  heading: string,
  message: string,
  status: number,
  requestId?: string,
): string {
  const body = html`<div class="wrap"><main id="main" class="error-page">
<p class="status">Error ${status}</p>
<h1>${heading}</h1>
<p>${message}</p>
${area === "c" ? html`<p><a href="/">Almanac home</a></p>` : ""}
${requestIdNote(requestId)}
</main></div>`;
  return documentHtml({ title: heading, area, noindex: true, meta: { title: heading, description: message }, body });
}

/** The error's request id in small print, for a human to quote to whoever runs the service. */
export const requestIdNote = (requestId: string | undefined): SafeHtml | "" =>
  requestId === undefined ? "" : html`<p><small>Request id: ${requestId}</small></p>`;
