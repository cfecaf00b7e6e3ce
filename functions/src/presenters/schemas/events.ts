import { z } from "zod";
import { EVENT_KINDS, RECUR_TYPES } from "../../domain/types.js";

/** A recurrence rule with every key, null where it does not apply. */
export const recurRecord = z.object({
  type: z.enum(RECUR_TYPES),
  day: z.union([z.number(), z.array(z.number())]).nullable(),
  week: z.number().nullable(),
  month: z.number().nullable(),
  interval: z.number(),
  starts: z.string().nullable(),
  until: z.string().nullable(),
  count: z.number().nullable(),
});
export type PresentedRecur = z.input<typeof recurRecord>;

/** An event as the API answers it (presenters/events.ts builds it); `layer` only in `?layers=all` lists. */
export const eventRecord = z.object({
  id: z.string(),
  calendar_id: z.string(),
  layer: z.string().optional(),
  kind: z.enum(EVENT_KINDS),
  name: z.string(),
  date: z.string().nullable(),
  recur: recurRecord.nullable(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  days: z.number().int().describe("Dates each occurrence covers from its date (/docs/events.md#events-that-span-days)"),
  category: z.string().nullable(),
  notes: z.string().nullable(),
  art: z.string().nullable(),
  alarms: z
    .array(z.number().int())
    .describe("Minutes before each occurrence's start, largest first; [] when none (/docs/events.md#alarms)"),
  ical_uid: z
    .string()
    .nullable()
    .describe("UID of the iCalendar event it was imported from; null when not imported (/docs/import.md)"),
  created_by: z.object({ id: z.string(), name: z.string() }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PresentedEvent = z.input<typeof eventRecord>;

export const occurrenceRecord = z.object({
  event_id: z.string(),
  layer: z.string(),
  date: z.string(),
  end_date: z
    .string()
    .describe("The date it ends on: its last day, or the next day for a one-day occurrence ending overnight"),
  days: z.number().int().describe("Dates it covers from `date`"),
  original_date: z.string(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  start: z.string().nullable(),
  end: z.string().nullable(),
  name: z.string(),
  category: z.string().nullable(),
  alarms: z
    .array(z.number().int())
    .describe("This occurrence's alarms: its own if an exception set them, else the event's"),
});
export type PresentedOccurrence = z.input<typeof occurrenceRecord>;

/** One cancelled, moved or changed occurrence of a series, keyed by its original date. */
export const exceptionRecord = z.object({
  event_id: z.string(),
  original_date: z.string(),
  cancelled: z.boolean(),
  date: z.string(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  days: z.number().int().describe("Dates it covers from `date`"),
  name: z.string(),
  category: z.string().nullable(),
  notes: z.string().nullable(),
  alarms: z
    .array(z.number().int())
    .nullable()
    .describe("This occurrence's own alarms ([] = none); null when it follows the event's"),
});
export type PresentedException = z.input<typeof exceptionRecord>;
