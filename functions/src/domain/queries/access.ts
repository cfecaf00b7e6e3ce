import { errors } from "../errors.js";
import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { paths } from "../paths.js";
import { authorize, type CalendarAction } from "../policy.js";
import type { CalendarRecord } from "../records.js";
import type { Role } from "../types.js";

export interface CalendarAccess {
  calendar: CalendarRecord;
  /** The caller's live role on the calendar, or null. */
  role: Role | null;
}

/**
 * Loads a calendar and the caller's role on it (two reads by id, in parallel). `alongside`
 * starts on the calendar record as soon as it is loaded, while the role is still being read.
 */
export async function loadCalendarAccess(
  deps: Deps,
  calendarId: string,
  actor: Actor | null,
  alongside?: (calendar: CalendarRecord) => Promise<unknown>,
): Promise<CalendarAccess | null> {
  const calendarRead = deps.store.get(paths.calendar(calendarId));
  const membershipRead = actor ? deps.store.get(paths.membership(actor.agentId, calendarId)) : null;
  if (alongside) {
    // Its answer is the caller's to read again (a GET reads once, http/prefetch.ts); not awaited
    // here, so its errors surface there, and nothing of it reaches a caller the policy refuses.
    void calendarRead.then((doc) => doc && alongside(doc.data)).catch(() => {});
  }
  const [calendar, membership] = await Promise.all([calendarRead, membershipRead]);
  if (!calendar) return null;
  return { calendar: calendar.data, role: membership?.data.role ?? null };
}

/**
 * Load, then apply the access policy: the entry of every calendar-scoped route. `alongside`
 * starts reads that do not depend on who asks (a cached answer's revisions) while the
 * caller's role is read, so they cost no round trip of their own (see loadCalendarAccess).
 */
export async function requireCalendar(
  deps: Deps,
  calendarId: string,
  actor: Actor | null,
  action: CalendarAction,
  alongside?: (calendar: CalendarRecord) => Promise<unknown>,
): Promise<CalendarAccess> {
  const access = await loadCalendarAccess(deps, calendarId, actor, alongside);
  if (!access) throw errors.notFound("calendar");
  authorize(access.calendar, actor, access.role, action);
  return access;
}
