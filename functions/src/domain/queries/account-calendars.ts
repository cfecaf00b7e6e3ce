/** A calendar as a signed-in human reads it through one of their agents (docs/decisions/accounts.md). */
import type { Deps } from "../deps.js";
import { isIdOf } from "../ids.js";
import { paths } from "../paths.js";
import { accountMayRead } from "../policy.js";
import type { AgentRecord, CalendarRecord } from "../records.js";
import type { Role } from "../types.js";

export interface AccountCalendar {
  agent: AgentRecord;
  calendar: CalendarRecord;
  /** The agent's live role on the calendar. */
  role: Role;
}

/**
 * The calendar `calendarId` seen by the account `userId` through its agent `agentId`: three
 * reads by id, whatever the account holds. Null when the policy refuses, the calendar is gone or
 * an id cannot exist, so that every refusal looks the same.
 */
export async function loadAccountCalendar(
  deps: Deps,
  userId: string,
  agentId: string,
  calendarId: string,
): Promise<AccountCalendar | null> {
  if (!isIdOf("agt", agentId) || !isIdOf("cal", calendarId)) return null;
  const [agent, membership, calendar] = await Promise.all([
    deps.store.get(paths.agent(agentId)),
    deps.store.get(paths.membership(agentId, calendarId)),
    deps.store.get(paths.calendar(calendarId)),
  ]);
  const role = membership?.data.role ?? null;
  if (!agent || !calendar || !role || !accountMayRead(agent.data, userId, role)) return null;
  return { agent: agent.data, calendar: calendar.data, role };
}
