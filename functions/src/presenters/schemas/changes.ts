import { z } from "zod";
import { CHANGE_TYPES } from "../../domain/records.js";
import { eventRecord } from "./events.js";

/** What an `alarm` change carries besides its id and original date (docs/api.md#alarms). */
const alarmFields = {
  event_id: z.string().optional().meta({ description: "alarm: the event whose occurrence alarmed" }),
  date: z.string().optional().meta({ description: "alarm: the occurrence's date (after an exception moved it)" }),
  start: z.string().nullable().optional().meta({
    description: "alarm: the occurrence's start instant with its UTC offset; null for an all-day occurrence",
  }),
  end: z.string().nullable().optional().meta({
    description: "alarm: the occurrence's end instant; null without an end time",
  }),
  minutes_before: z.number().int().optional().meta({ description: "alarm: which alarm, in minutes before the start" }),
  name: z.string().optional().meta({ description: "alarm: the occurrence's name" }),
  layer: z.literal("main").optional().meta({ description: "alarm: always main; a layer's alarms are in its own feed" }),
  due_at: z.string().optional().meta({
    description:
      "alarm: when it fell due (UTC instant); `at` is when it was recorded, up to a minute later when deployed",
  }),
};

/** One change of a calendar (presenters/changes.ts builds it). */
export const changeRecord = z.object({
  seq: z.number().int().meta({
    description: "Rises by one per change in the order this cursor reads them; use the cursor, not seq, to resume",
  }),
  type: z.enum(CHANGE_TYPES),
  id: z.string().meta({
    description:
      "The event's id; the calendar's for calendar.updated; the layer's for layer.*; for alarm, `alm_...`, " +
      "the same for one alarm of one occurrence whoever records it",
  }),
  at: z.string().meta({ description: "When the write was made (UTC instant)" }),
  event: eventRecord.optional().meta({
    description:
      "The event as GET shows it after the change (the series for exception.changed); absent for event.deleted and non-event changes",
  }),
  original_date: z
    .string()
    .optional()
    .meta({
      description:
        "exception.changed: the original date of the occurrence that was changed or restored; " +
        "alarm: the series date of the occurrence that alarmed",
    }),
  ...alarmFields,
});
export type PresentedChange = z.input<typeof changeRecord>;

export const changesPage = z.object({
  changes: z.array(changeRecord),
  cursor: z.string().meta({ description: "Send it back as `cursor` to read the changes after these" }),
});
