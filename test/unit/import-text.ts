/** Builds iCalendar texts for the import reader's tests, and reads them into a Berlin calendar by default. */
import { readIcs } from "../../functions/src/domain/import/read.js";
import type { ImportPlan } from "../../functions/src/domain/import/plan.js";

/** A VCALENDAR around the given components, CRLF line ends. */
export const calendarText = (...components: string[]): string =>
  `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//import//EN\r\n${components.join("")}END:VCALENDAR\r\n`;

/** A component of the given content lines. */
export const component = (name: string, lines: string[]): string =>
  `BEGIN:${name}\r\n${lines.join("\r\n")}\r\nEND:${name}\r\n`;

export const vevent = (...lines: string[]): string => component("VEVENT", lines);

export const read = (text: string, timezone = "Europe/Berlin"): Promise<ImportPlan> => readIcs(text, { timezone });

/** The one event read from one VEVENT, with nothing skipped. */
export async function onlyEvent(text: string, timezone = "Europe/Berlin") {
  const plan = await read(text, timezone);
  if (plan.events.length !== 1) throw new Error(`expected one event, got ${JSON.stringify(plan)}`);
  return plan.events[0];
}

/** The reasons given for what was skipped. */
export const reasons = (plan: ImportPlan): string[] => plan.skipped.map((s) => s.reason);
