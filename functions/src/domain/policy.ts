import { errors, quote } from "./errors.js";
import type { Actor } from "./actor.js";
import type { AgentRecord, CalendarRecord, CredentialRecord, LayerRecord } from "./records.js";
import type { Role, Scope } from "./types.js";

/**
 * The one place that decides who may do what on a calendar (docs/api.md#access).
 * Precedence: a calendar outside the credential's calendars, and a private calendar without
 * a live grant, is 404 (its existence is never revealed); then a missing scope is 403
 * insufficient_scope; then too low a role is 403 forbidden. Authentication (401) happens
 * before, in the route layer.
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

/** What the policy reads of a caller: its scopes and its credential's calendars. */
type Caller = Pick<Actor, "scopes" | "calendars">;

const RANK: Record<Role, number> = { reader: 1, writer: 2, owner: 3 };

export const roleAtLeast = (role: Role | null, min: Role): boolean => role !== null && RANK[role] >= RANK[min];

/**
 * Whether the caller's credential reaches the calendar: a credential restricted to named
 * calendars meets any other as if it did not exist, whatever its visibility and the agent's role.
 */
export const credentialReaches = (actor: Pick<Actor, "calendars"> | null, calendarId: string): boolean =>
  !actor || actor.calendars === null || actor.calendars.includes(calendarId);

/**
 * Whether something that names calendars (a webhook, a credential) lies within the caller's
 * reach: for a restricted credential, only when it names calendars and all of them are its own.
 */
export const reachesAll = (
  actor: Pick<Actor, "calendars">,
  calendarIds: readonly string[] | null | undefined,
): boolean => actor.calendars === null || (!!calendarIds && calendarIds.every((id) => credentialReaches(actor, id)));

/** Whether the caller may see the calendar at all (pages and reads). */
export const canSee = (calendar: CalendarRecord, role: Role | null): boolean =>
  calendar.visibility !== "private" || role !== null;

/**
 * Whether the caller could read the calendar directly (GET .../events would answer 200):
 * used where a refusal must not be thrown, e.g. which layers a viewer sees.
 */
export const mayRead = (calendar: CalendarRecord, actor: Caller | null, role: Role | null): boolean =>
  credentialReaches(actor, calendar.id) &&
  (calendar.visibility !== "private" ||
    (role !== null && !!actor && actor.scopes.includes(RULES["calendar.read"].scope)));

export function authorize(
  calendar: CalendarRecord,
  actor: Caller | null,
  role: Role | null,
  action: CalendarAction,
): void {
  authorizeAccess(calendar, actor, role, action);
  authorizeRole(role, action);
}

/** The first half of `authorize`: 404 for a calendar the caller may not see, then the scope. */
function authorizeAccess(
  calendar: CalendarRecord,
  actor: Caller | null,
  role: Role | null,
  action: CalendarAction,
): void {
  if (!credentialReaches(actor, calendar.id) || !canSee(calendar, role)) throw errors.notFound("calendar");
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

/** A calendar created by a restricted credential would lie outside its reach: such a credential creates none. */
export function authorizeCalendarCreation(actor: Caller): void {
  if (actor.calendars !== null) throw errors.restrictedCredential("create calendars");
}

/**
 * Publishing shows a calendar's layers to whoever holds the address (a share view, a page made
 * public or unlisted): a restricted credential publishes no layer of a calendar outside its
 * reach, or it would read through the page what the API hides from it.
 */
export function authorizePublishing(actor: Pick<Actor, "calendars">, layerCalendarIds: readonly string[]): void {
  if (layerCalendarIds.some((id) => !credentialReaches(actor, id))) {
    throw errors.restrictedCredential(
      "publish a layer of a calendar outside them (name the layers to show in `filter.layers`, or detach it)",
    );
  }
}

/**
 * The calendars a share view shows beside its own: its layers' that `filter.layers` names, or
 * all; an outside feed's calendar is the host's own, within reach of whoever reaches the host.
 */
export const viewLayerCalendars = (
  layerKeys: readonly string[] | null,
  layers: readonly Pick<LayerRecord, "key" | "calendar_id" | "feed">[],
): string[] =>
  layers.filter((l) => !l.feed && (layerKeys === null || layerKeys.includes(l.key))).map((l) => l.calendar_id);

/**
 * Whether a share view lies within the credential's reach: a restricted credential neither
 * lists nor changes a view that shows a calendar outside it (its address would show that
 * calendar), as if it did not exist.
 */
export const viewWithinReach = (
  actor: Pick<Actor, "calendars">,
  layerKeys: readonly string[] | null,
  layers: readonly Pick<LayerRecord, "key" | "calendar_id" | "feed">[],
): boolean => viewLayerCalendars(layerKeys, layers).every((id) => credentialReaches(actor, id));

/** Whether a credential's token still works: not revoked, and not past its expiry. */
export const credentialWorks = (credential: Partial<Pick<CredentialRecord, "revoked_at" | "expires_at">>, now: Date) =>
  !credential.revoked_at && (!credential.expires_at || Date.parse(credential.expires_at) > now.getTime());

/** What a new credential carries, its defaults already taken from the credential creating it. */
export interface CredentialTerms {
  scopes: readonly Scope[];
  calendars: readonly string[] | null;
  expiresAt: string | null;
}

/**
 * Who issues a credential: the calling credential, or an agent's human issuing in its name
 * (every scope, no calendars named, no expiry, unless chosen).
 */
export type CredentialIssuer = Pick<Actor, "agentId" | "agentName" | "scopes" | "calendars" | "expiresAt">;

/**
 * A credential never grants more than the one creating it: no scope it lacks (403
 * insufficient_scope), no calendar outside its own (404, as any calendar it cannot reach), no
 * life beyond its own expiry. Whether each calendar is readable at all is judged by `authorize`.
 */
export function authorizeIssue(issuer: CredentialIssuer, terms: CredentialTerms): void {
  const lacking = terms.scopes.find((scope) => !issuer.scopes.includes(scope));
  if (lacking) throw errors.insufficientScope(lacking);
  if (issuer.calendars !== null) {
    if (terms.calendars === null) throw errors.restrictedCredential("create a credential for every calendar");
    const outside = terms.calendars.find((id) => !issuer.calendars!.includes(id));
    if (outside !== undefined) throw errors.notFound(`calendar \`${quote(outside)}\``);
  }
  if (issuer.expiresAt !== null && (terms.expiresAt === null || terms.expiresAt > issuer.expiresAt)) {
    throw errors.invalidField(
      "invalid_request",
      "expires_at",
      `must not be after the expiry of the credential creating it (${issuer.expiresAt})`,
    );
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
