import type { DocData, Transaction } from "../storage/port.js";
import { randomString } from "./ids.js";
import { paths } from "./paths.js";

/**
 * A calendar's `revision` changes with every write that changes what the calendar shows (its
 * settings, events and layers), so a rendered response can be cached under the revisions it
 * was computed from. A random token rather than a counter: the write needs no read, so
 * concurrent event writes do not contend on the calendar document.
 */
export const newRevision = (): string => randomString(12);

/** `also`: other fields of the calendar document written with the new revision (a quota counter). */
export function touchCalendar(tx: Transaction, calendarId: string, also: DocData = {}): void {
  tx.update(paths.calendar(calendarId), { ...also, revision: newRevision() });
}

/** The cache key part of a set of calendars shown together (layer key, id and revision of each). */
export const revisionsKey = (sources: Array<{ layer: string; calendar: { id: string; revision: string } }>): string =>
  sources.map((s) => `${s.layer}:${s.calendar.id}:${s.calendar.revision}`).join(",");
