import { z } from "zod";
import { CHANGE_TYPES } from "../../domain/records.js";
import { eventRecord } from "./events.js";

/** One change of a calendar (presenters/changes.ts builds it). */
export const changeRecord = z.object({
  seq: z.number().int().meta({
    description: "Rises by one per change in the order this cursor reads them; use the cursor, not seq, to resume",
  }),
  type: z.enum(CHANGE_TYPES),
  id: z.string().meta({ description: "The event's id; the calendar's for calendar.updated; the layer's for layer.*" }),
  at: z.string().meta({ description: "When the write was made (UTC instant)" }),
  event: eventRecord.optional().meta({
    description:
      "The event as GET shows it after the change (the series for exception.changed); absent for event.deleted and non-event changes",
  }),
  original_date: z
    .string()
    .optional()
    .meta({ description: "exception.changed: the original date of the occurrence that was changed or restored" }),
});
export type PresentedChange = z.input<typeof changeRecord>;

export const changesPage = z.object({
  changes: z.array(changeRecord),
  cursor: z.string().meta({ description: "Send it back as `cursor` to read the changes after these" }),
});
