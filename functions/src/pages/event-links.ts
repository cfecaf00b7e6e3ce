/**
 * "Add to my calendar" for one occurrence: Google Calendar's and Outlook on the web's
 * compose links, filled in from the occurrence (times as UTC instants, an all-day one by date).
 */
import { addDays } from "../domain/recurrence/index.js";
import { markdownText } from "./markdown-text.js";

/** What the links carry: the name, notes and the page's address, and when. */
export interface AddedEvent {
  name: string;
  notes: string | null;
  url: string;
  /** The local date of an all-day occurrence. */
  date: string;
  /** Instants (UTC ms) of a timed one; null when all-day. */
  instants: { start: number; end: number | null } | null;
}

/** Notes go into the address: beyond this they are cut (the page has them whole). */
const DETAILS_CHARACTERS = 1500;

/** The notes as plain text, as a feed carries them (markdown-text.ts), then the page's address. */
function details(event: AddedEvent): string {
  const notes = event.notes ? markdownText(event.notes.slice(0, DETAILS_CHARACTERS)) : "";
  const cut = (event.notes?.length ?? 0) > DETAILS_CHARACTERS ? `${notes}…` : notes;
  return cut ? `${cut}\n\n${event.url}` : event.url;
}

const query = (params: Record<string, string>): string => new URLSearchParams(params).toString();

/** "20261209T090000Z" */
const compactUtc = (ms: number): string =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
/** "2026-12-09T09:00:00Z" */
const isoUtc = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

export function googleCalendarLink(event: AddedEvent): string {
  const { instants } = event;
  const dates = instants
    ? `${compactUtc(instants.start)}/${compactUtc(instants.end ?? instants.start)}`
    : `${event.date.replaceAll("-", "")}/${addDays(event.date, 1).replaceAll("-", "")}`;
  return `https://calendar.google.com/calendar/render?${query({
    action: "TEMPLATE",
    text: event.name,
    dates,
    details: details(event),
  })}`;
}

export function outlookWebLink(event: AddedEvent): string {
  const { instants } = event;
  const when: Record<string, string> = instants
    ? { startdt: isoUtc(instants.start), enddt: isoUtc(instants.end ?? instants.start) }
    : { startdt: event.date, enddt: addDays(event.date, 1), allday: "true" };
  return `https://outlook.live.com/calendar/0/deeplink/compose?${query({
    subject: event.name,
    ...when,
    body: details(event),
  })}`;
}
