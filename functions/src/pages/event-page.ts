/**
 * One occurrence's page: its full name, when (date, times, zone), whether it was moved or
 * cancelled, its series' rule, category, layer and notes, and "add to my calendar" for it alone.
 */
import { describeRecur, longDate } from "./format.js";
import { html, type SafeHtml } from "./html.js";
import { eventPageMeta } from "./head.js";
import { documentHtml } from "./layout.js";
import { renderMarkdown } from "./markdown.js";
import type { EventPageModel } from "./event-load.js";
import { googleCalendarLink, outlookWebLink } from "./event-links.js";
import { slotWords } from "./occurrence-parts.js";
import { ALL_DAY, artImageUrl, timesHtml } from "./parts.js";
import type { PlacedSlot } from "./changes.js";
import { ownColoursLink } from "./legend.js";
import { tzParam, unknownZoneNote, zoneForm, zoneLabel } from "./reader-zone.js";

const whenHtml = (at: PlacedSlot, zone: string): SafeHtml =>
  html`<time datetime="${at.date}">${longDate(at.date)}</time>, ${timesHtml(at) || ALL_DAY} \
<span class="zone">(${zoneLabel(zone, at.date)})</span>`;

function statusHtml(model: EventPageModel): SafeHtml | "" {
  const { state, elsewhere } = model;
  if (state === "cancelled")
    return html`<p><span class="occurrence-status">Cancelled</span> This occurrence will not take place.</p>`;
  if (state === "moved away" && elsewhere)
    return html`<p><span class="occurrence-status">Moved</span> This occurrence moved to \
<a href="${elsewhere.date}${tzParam(model.reader, true)}">${slotWords(elsewhere, null)}</a>.</p>`;
  if (state === "moved" && elsewhere)
    return html`<p><span class="occurrence-status">Moved</span> This occurrence moved here from \
${slotWords(elsewhere, null)}.</p>`;
  return "";
}

function factsHtml(model: EventPageModel): SafeHtml {
  const { event, own, state } = model;
  const facts: SafeHtml[] = [html`<dt>When</dt><dd>${whenHtml(model.at, model.timezone)}</dd>`];
  if (own && own.timezone !== model.timezone)
    facts.push(html`<dt>In its own calendar</dt><dd>${whenHtml(own.at, own.timezone)}</dd>`);
  if (event.recur) {
    // A moved or cancelled occurrence is the exception to its series' rule: the rule says what usually happens.
    const usually = state === "scheduled" ? "" : "usually ";
    facts.push(html`<dt>Repeats</dt><dd>${usually}${describeRecur(event.recur)}</dd>`);
  }
  if (event.category) {
    const colour = event.colour === null ? "" : ` ${event.colour}`;
    facts.push(html`<dt>Category</dt><dd><span class="category${colour}">${event.category}</span></dd>`);
  }
  if (event.layer !== "main")
    facts.push(html`<dt>From</dt><dd>the layer <strong>${event.layer}</strong>, a calendar shown on ${model.title}\
${own ? html`, whose times are set in ${own.timezone}` : ""}</dd>`);
  return html`<dl class="event-facts">${facts}</dl>`;
}

function addToHtml(model: EventPageModel): SafeHtml | "" {
  if (model.state === "cancelled" || model.state === "moved away") return "";
  const added = {
    name: model.event.name,
    notes: model.event.notes,
    url: model.url,
    date: model.at.date,
    instants: model.instants,
  };
  return html`<section class="add-to" aria-labelledby="add-heading"><h2 id="add-heading">Add to my calendar</h2>
<ul><li><a href="${model.date}.ics" type="text/calendar">Download (.ics)</a></li>\
<li><a href="${googleCalendarLink(added)}">Google Calendar</a></li>\
<li><a href="${outlookWebLink(added)}">Outlook on the web</a></li></ul>
</section>`;
}

function artHtml(art: string | null): SafeHtml | "" {
  if (!art) return "";
  const src = artImageUrl(art);
  if (src) return html`<img class="art" src="${src}" alt="" width="32" height="32" referrerpolicy="no-referrer"> `;
  return html`<span class="art" aria-hidden="true">${art}</span> `;
}

export function renderEventPage(model: EventPageModel): string {
  const { event } = model;
  const struck = model.state === "cancelled" || model.state === "moved away";
  const name = struck ? html`<s>${event.name}</s>` : event.name;
  const notes = event.notes
    ? html`<section class="event-notes" aria-labelledby="notes-heading"><h2 id="notes-heading">Notes</h2>\
<div class="notes">${renderMarkdown(event.notes)}</div></section>`
    : "";
  const area = model.kind === "calendar" ? "c" : "v";
  const body = html`<div class="wrap"><main id="main" class="event-page">
<p class="eyebrow"><a href="${model.home}?date=${model.date}${tzParam(model.reader)}">${model.title}</a></p>
<h1>${artHtml(event.art)}${name}</h1>
${unknownZoneNote(model.reader)}${statusHtml(model)}${factsHtml(model)}${notes}${addToHtml(model)}
${zoneForm(model.reader, {}, "?")}
</main>
<footer>All times ${model.timezone}.</footer>
</div>`;
  return documentHtml({
    title: `${event.name} · ${longDate(model.date)} · ${model.title}`,
    area,
    noindex: model.noindex,
    meta: eventPageMeta(model),
    head: ownColoursLink(area, [event]),
    body,
  });
}
