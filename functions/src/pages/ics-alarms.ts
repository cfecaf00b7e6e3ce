/**
 * An occurrence's alarms in a feed (docs/api.md#alarms): one VALARM each,
 *
 *   BEGIN:VALARM / ACTION:DISPLAY / TRIGGER:-PT{n}M / DESCRIPTION:{the occurrence's name} / END:VALARM
 *
 * with `TRIGGER:PT0M` for an alarm at the start. Written here rather than by ical-generator's
 * alarms, for two reasons:
 * - the trigger is always minutes, exact time (RFC 5545 3.3.6) as the API counts an alarm;
 *   ical-generator writes 1,440 minutes as `-P1D`, a nominal day, which a client may read as
 *   the same wall-clock time the day before: 23 or 25 hours across a DST change;
 * - RFC 5545 (3.6.1) puts a VEVENT's alarms after all its properties, and some readers lose
 *   the properties that follow a VALARM (or refuse the event); ical-generator writes them
 *   before CATEGORIES and the `x` properties, DURATION among them. ics-fold.ts places this
 *   text just before END:VEVENT.
 */
import { escape } from "ical-generator";

/** RFC 5545 TRIGGER value for an alarm `minutes` before the start. */
export const triggerValue = (minutes: number): string => (minutes === 0 ? "PT0M" : `-PT${minutes}M`);

/** The VALARMs of one VEVENT, unfolded, each line ending in CRLF; "" without alarms. */
export function alarmsText(minutes: readonly number[], summary: string): string {
  if (minutes.length === 0) return "";
  const description = escape(summary, false);
  return minutes
    .map(
      (m) =>
        `BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:${triggerValue(m)}\r\nDESCRIPTION:${description}\r\nEND:VALARM\r\n`,
    )
    .join("");
}
