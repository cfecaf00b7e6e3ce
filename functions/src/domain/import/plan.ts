/**
 * What an iCalendar text becomes before anything is stored: the events it holds, in the fields
 * an event is created with (in the target calendar's zone), each with its exceptions, and every
 * component that could not be represented with the reason. Reading a text (read.ts) makes one;
 * an import or a feed refresh matches it against the stored events by UID and writes it.
 */
import type { ExceptionInput } from "../commands/exceptions.js";
import type { EventInput } from "../events/rules.js";

/** The longest iCalendar text an import takes, in bytes (characters, for a JSON or MCP `ics`). */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;

/** The most events one text may hold (masters and overrides alike), for an import or a feed. */
export const MAX_IMPORT_EVENTS = 5_000;

/** One occurrence of an imported series changed: cancelled (EXDATE, a cancelled override) or moved or retimed. */
export interface ImportedException {
  /** The date the series planned the occurrence on, in the calendar's zone (RECURRENCE-ID). */
  original_date: string;
  change: ExceptionInput;
}

export interface ImportedEvent {
  /** The component's UID, stored on the event as `ical_uid`: the same UID is the same event on every import. */
  uid: string;
  /** The event as POST .../events takes it, in the calendar's zone; `art` is never set. */
  event: EventInput & { name: string };
  exceptions: ImportedException[];
}

/** A component (or a part of one, such as an alarm) left out, and why; nothing is left out silently. */
export interface SkippedComponent {
  uid: string | null;
  reason: string;
}

export interface ImportPlan {
  /** The text's own name for its calendar (X-WR-CALNAME), when it gives one: a feed layer takes it. */
  name: string | null;
  events: ImportedEvent[];
  skipped: SkippedComponent[];
}
