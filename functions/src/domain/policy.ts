import { errors } from "./errors.js";
import type { Actor } from "./actor.js";
import type { AgentRecord, CalendarRecord } from "./records.js";
import type { Role, Scope } from "./types.js";

/**
 * The one place that decides who may do what on a calendar (docs/api.md#access).
 * Precedence: a private calendar without a live grant is 404 (its existence is never
 * revealed); then a missing scope is 403 insufficient_scope; then too low a role is
 * 403 forbidden. Authentication (401) happens before, in the route layer.
 */
export type CalendarAction =
  | "calendar.read"
  | "calendar.update"
  | "calendar.delete"
  | "event.write"
  | "grants.manage"
  | "access.request"
  | "views.manage"
  | "layers.manage";

interface Rule {
  /** Scope needed; for reads only when the calendar is private (visible calendars are open to all). */
  scope: Scope;
  minRole: Role | null;
}

export const RULES: Record<CalendarAction, Rule> = {
  "calendar.read": { scope: "calendar:read", minRole: null },
  "calendar.update": { scope: "calendar:write", minRole: "owner" },
  "calendar.delete": { scope: "calendar:write", minRole: "owner" },
  "event.write": { scope: "calendar:write", minRole: "writer" },
  "grants.manage": { scope: "grants:manage", minRole: "owner" },
  "access.request": { scope: "calendar:read", minRole: null },
  "views.manage": { scope: "calendar:write", minRole: "owner" },
  "layers.manage": { scope: "calendar:write", minRole: "owner" },
};

const RANK: Record<Role, number> = { reader: 1, writer: 2, owner: 3 };

export const roleAtLeast = (role: Role | null, min: Role): boolean => role !== null && RANK[role] >= RANK[min];

/** Whether the caller may see the calendar at all (pages and reads). */
export const canSee = (calendar: CalendarRecord, role: Role | null): boolean =>
  calendar.visibility !== "private" || role !== null;

/**
 * Whether the caller could read the calendar directly (GET .../events would answer 200):
 * used where a refusal must not be thrown, e.g. which layers a viewer sees.
 */
export const mayRead = (calendar: CalendarRecord, actor: Actor | null, role: Role | null): boolean =>
  calendar.visibility !== "private" ||
  (role !== null && !!actor && actor.scopes.includes(RULES["calendar.read"].scope));

export function authorize(
  calendar: CalendarRecord,
  actor: Actor | null,
  role: Role | null,
  action: CalendarAction,
): void {
  authorizeAccess(calendar, actor, role, action);
  authorizeRole(role, action);
}

/** The first half of `authorize`: 404 for a calendar the caller may not see, then the scope. */
function authorizeAccess(
  calendar: CalendarRecord,
  actor: Actor | null,
  role: Role | null,
  action: CalendarAction,
): void {
  if (!canSee(calendar, role)) throw errors.notFound("calendar");
  const rule = RULES[action];
  const scopeNeeded = action === "calendar.read" ? calendar.visibility === "private" : true;
  if (scopeNeeded && actor && !actor.scopes.includes(rule.scope)) throw errors.insufficientScope(rule.scope);
}

/**
 * The second half: the role. Grant writes call it inside their transaction, with the role
 * read there, so a caller demoted by a concurrent request is judged on the committed state.
 */
export function authorizeRole(role: Role | null, action: CalendarAction): void {
  const { minRole } = RULES[action];
  if (minRole && !roleAtLeast(role, minRole)) {
    throw errors.forbidden(minRole === "owner" ? "the owner role" : "a writer or owner role");
  }
}

/**
 * Whether a signed-in human holds an agent: it was claimed by, or minted onboarded to, this
 * account. The account pages act on an agent only then (revoking it, disabling or deleting its
 * webhooks); anyone else's agent is one and the same 404 (docs/decisions/accounts.md).
 */
export const accountOwnsAgent = (agent: AgentRecord | null, userId: string): agent is AgentRecord =>
  agent !== null && agent.owner_user_id === userId;

/**
 * Whether a signed-in human may read a calendar through one of their agents (the account
 * page, read-only): the agent is claimed by this account and holds a live role on the calendar,
 * any role, whatever the calendar's visibility: what the agent reads it could tell its human
 * anyway (docs/decisions/accounts.md). A revoked agent keeps its claim and its grants.
 */
export const accountMayRead = (agent: AgentRecord | null, userId: string, agentRole: Role | null): boolean =>
  accountOwnsAgent(agent, userId) && agentRole !== null;
