import { z } from "zod";

/** A stretch of time: ISO 8601 instants with a UTC offset; `end` is not part of it. */
export const timeInterval = z.object({
  start: z.string().describe("First instant, ISO 8601 with offset"),
  end: z.string().describe("The instant it ends (not included), ISO 8601 with offset"),
});
export type PresentedInterval = z.input<typeof timeInterval>;

/** One named calendar: its busy intervals, or `not_found` when it does not exist or the caller may not read it. */
export const calendarFreeBusy = z.union([
  z.object({ busy: z.array(timeInterval) }),
  z.object({ error: z.literal("not_found") }),
]);

export const freeBusyAnswer = z.object({
  calendars: z.record(z.string(), calendarFreeBusy),
  busy: z.array(timeInterval),
});
export type PresentedFreeBusy = z.input<typeof freeBusyAnswer>;

export const slotsAnswer = z.object({ slots: z.array(timeInterval) });
export type PresentedSlots = z.input<typeof slotsAnswer>;
