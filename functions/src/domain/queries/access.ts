import { errors } from "../../http/errors.js";
import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { paths } from "../paths.js";
import { authorize, type CalendarAction } from "../policy.js";
import type { CalendarRecord, MembershipRecord, Role } from "../types.js";

export interface CalendarAccess {
  calendar: CalendarRecord;
  /** The caller's live role on the calendar, or null. */
  role: Role | null;
}

/** Loads a calendar and the caller's role on it (two reads by id, in parallel). */
export async function loadCalendarAccess(deps: Deps, calendarId: string, actor: Actor | null): Promise<CalendarAccess | null> {
  const [calendar, membership] = await Promise.all([
    deps.store.get<CalendarRecord>(paths.calendar(calendarId)),
    actor ? deps.store.get<MembershipRecord>(paths.membership(actor.agentId, calendarId)) : Promise.resolve(null),
  ]);
  if (!calendar) return null;
  return { calendar: calendar.data, role: membership?.data.role ?? null };
}

/** Load, then apply the access policy: the entry of every calendar-scoped route. */
export async function requireCalendar(
  deps: Deps,
  calendarId: string,
  actor: Actor | null,
  action: CalendarAction,
): Promise<CalendarAccess> {
  const access = await loadCalendarAccess(deps, calendarId, actor);
  if (!access) throw errors.notFound("calendar");
  authorize(access.calendar, actor, access.role, action);
  return access;
}
