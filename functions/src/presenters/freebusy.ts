import type { Interval } from "../domain/freebusy/intervals.js";
import { ZoneClock } from "../domain/freebusy/zone.js";
import type { BusyTime, FreeBusyScope } from "../domain/queries/freebusy.js";
import type { PresentedFreeBusy, PresentedInterval, PresentedSlots } from "./schemas/freebusy.js";

const presentInterval = (clock: ZoneClock, i: Interval): PresentedInterval => ({
  start: clock.format(i.start),
  end: clock.format(i.end),
});

/**
 * Each calendar's intervals carry the UTC offset of that calendar's timezone (as occurrences
 * do); the merged ones, the offset of the request's zone.
 */
export function presentFreeBusy(scope: FreeBusyScope, busy: BusyTime): PresentedFreeBusy {
  const clocks = new Map([[scope.zone, scope.clock]]);
  const clockOf = (zone: string): ZoneClock => {
    let clock = clocks.get(zone);
    if (!clock) clocks.set(zone, (clock = new ZoneClock(zone, scope.range.start, scope.range.end)));
    return clock;
  };
  const calendars: PresentedFreeBusy["calendars"] = {};
  for (const named of scope.calendars) {
    if (!named.calendar) {
      calendars[named.id] = { error: "not_found" };
      continue;
    }
    const clock = clockOf(named.calendar.timezone);
    calendars[named.id] = { busy: (busy.byCalendar.get(named.id) ?? []).map((i) => presentInterval(clock, i)) };
  }
  return { calendars, busy: busy.merged.map((i) => presentInterval(scope.clock, i)) };
}

/** Slots carry the offset of the working hours' zone. */
export const presentSlots = (clock: ZoneClock, slots: Interval[]): PresentedSlots => ({
  slots: slots.map((i) => presentInterval(clock, i)),
});
