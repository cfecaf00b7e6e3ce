import { DomainError, errors, quote } from "../errors.js";
import type { Actor } from "../actor.js";
import type { CommandDeps } from "../deps.js";
import { newAgentToken, newClaimToken, newId, sha256 } from "../ids.js";
import { paths } from "../paths.js";
import {
  authorize,
  authorizeIssue,
  credentialWorks,
  reachesAll,
  type CredentialIssuer,
  type CredentialTerms,
} from "../policy.js";
import { newAgentCounters, releaseQuota, takeQuota, writeCounter } from "../quotas.js";
import type { AgentRecord, CalendarRecord, ClaimRecord, CredentialRecord, TokenRecord } from "../records.js";
import { SCOPES, type Scope } from "../types.js";
import type { Transaction } from "../../storage/port.js";
import { createCalendarInTx } from "./create-calendar.js";

/** A claim link is good for 7 days, an onboard token for 30 minutes (docs/api.md#humans-claims-and-accounts). */
export const CLAIM_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const ONBOARD_TTL_MS = 30 * 60 * 1000;
/** An expired claim link is kept this long past its expiry, so that opening it says "expired" (410), not 404. */
export const CLAIM_KEPT_AFTER_EXPIRY_MS = 30 * 24 * 60 * 60 * 1000;
const LATER_SCOPES: Scope[] = ["agent:read", "calendar:read", "calendar:write"];
/** The most calendars one credential may name. */
export const MAX_CREDENTIAL_CALENDARS = 50;

export interface MintInput {
  name: string;
  calendar?: { name?: string; timezone?: string };
  onboard_token?: string;
}

export interface Minted {
  token: string;
  agent: AgentRecord;
  credential: CredentialRecord;
  calendar: CalendarRecord;
  claimToken: string | null;
}

/**
 * POST /v1/mint: an agent, its first credential and calendar, and a claim link, or instead the
 * account's onboard token marked used: read and spent in the one transaction it is given, so
 * two mints with one onboard token cannot both succeed.
 */
export async function mint(tx: Transaction, deps: Pick<CommandDeps, "clock">, input: MintInput): Promise<Minted> {
  const now = deps.clock();
  const nowIso = now.toISOString();
  const onboard = input.onboard_token ? await readOnboardToken(tx, input.onboard_token, now) : null;
  const agent: AgentRecord = {
    id: newId("agt"),
    name: input.name,
    created_at: nowIso,
    owner_user_id: onboard?.data.user_id ?? null,
  };
  const { calendar } = await createCalendarInTx(
    tx,
    { agentId: agent.id, agentName: agent.name },
    { name: input.calendar?.name ?? input.name, timezone: input.calendar?.timezone },
    nowIso,
  );
  // Its first calendar and credential count against its quotas from the start.
  tx.create(paths.agent(agent.id), { ...agent, ...newAgentCounters() });
  const firstTerms: CredentialTerms = { scopes: SCOPES, calendars: null, expiresAt: null };
  const { token, credential } = issueCredential(tx, agent, firstTerms, null, nowIso);
  let claimToken: string | null = null;
  if (onboard) {
    tx.update(onboard.path, { used_at: nowIso });
  } else {
    claimToken = newClaimToken();
    const expires = new Date(now.getTime() + CLAIM_TTL_MS);
    const claim: ClaimRecord = {
      agent_id: agent.id,
      created_at: nowIso,
      expires_at: expires.toISOString(),
      used_at: null,
      purge_at: new Date(expires.getTime() + CLAIM_KEPT_AFTER_EXPIRY_MS),
    };
    tx.create(paths.claim(sha256(claimToken)), claim);
  }
  return { token, agent, credential, calendar, claimToken };
}

async function readOnboardToken(tx: Transaction, token: string, now: Date) {
  const doc = token.startsWith("svc_onboard_") ? await tx.get(paths.onboardToken(sha256(token))) : null;
  const fresh = doc && !doc.data.used_at && Date.parse(doc.data.created_at) + ONBOARD_TTL_MS > now.getTime();
  if (!doc || !fresh) throw errors.invalidOnboardToken();
  return doc;
}

/** Writes a credential and its token lookup; the token itself is only returned, never stored. */
function issueCredential(
  tx: Transaction,
  agent: Pick<AgentRecord, "id" | "name">,
  terms: CredentialTerms,
  label: string | null,
  nowIso: string,
  tokenExpiresAt: string | null = terms.expiresAt,
): { token: string; credential: CredentialRecord } {
  const token = newAgentToken();
  const tokenHash = sha256(token);
  const scopes = [...terms.scopes];
  const calendars = terms.calendars && [...terms.calendars];
  const credential: CredentialRecord = {
    id: newId("cred"),
    agent_id: agent.id,
    label,
    scopes,
    token_hash: tokenHash,
    created_at: nowIso,
    expires_at: terms.expiresAt,
    revoked_at: null,
    calendars,
  };
  const lookup: TokenRecord = {
    agent_id: agent.id,
    agent_name: agent.name,
    credential_id: credential.id,
    scopes,
    expires_at: tokenExpiresAt,
    revoked_at: null,
    calendars,
  };
  tx.create(paths.credential(agent.id, credential.id), credential);
  tx.create(paths.token(tokenHash), lookup);
  return { token, credential };
}

/** What a new credential is asked to carry; what is left out comes from the issuer. */
export interface CredentialRequest {
  label: string | null;
  /** Default: agent:read, calendar:read and calendar:write, those of them the issuer holds. */
  scopes?: readonly Scope[];
  /** The only calendars it reaches (at most 50). Default: the issuer's own restriction, none if it has none. */
  calendars?: readonly string[] | null;
  /** An ISO instant, in the future. Default: the issuer's own expiry, none if it has none. */
  expires_at?: string | null;
  /**
   * When its first token stops working, before the credential does: an OAuth access token
   * (domain/oauth/tokens.ts), replaced by each refresh while the credential lives on. Default: with it.
   */
  token_expires_at?: string;
}

const invalid = (field: string, message: string) => errors.invalidField("invalid_request", field, message);

function credentialTerms(issuer: CredentialIssuer, request: CredentialRequest, now: Date): CredentialTerms {
  const calendars = request.calendars === undefined ? issuer.calendars : request.calendars;
  if (calendars && (calendars.length === 0 || calendars.length > MAX_CREDENTIAL_CALENDARS)) {
    throw invalid("calendars", `must name 1 to ${MAX_CREDENTIAL_CALENDARS} calendar ids`);
  }
  if (calendars && new Set(calendars).size !== calendars.length) throw invalid("calendars", "must list distinct ids");
  let expiresAt = request.expires_at === undefined ? issuer.expiresAt : request.expires_at;
  if (expiresAt !== null) {
    const instant = Date.parse(expiresAt);
    if (Number.isNaN(instant)) throw invalid("expires_at", "must be an ISO 8601 instant with an offset");
    if (instant <= now.getTime()) throw invalid("expires_at", "must be in the future");
    expiresAt = new Date(instant).toISOString();
  }
  return {
    scopes: request.scopes ?? LATER_SCOPES.filter((scope) => issuer.scopes.includes(scope)),
    calendars,
    expiresAt,
  };
}

/** Each calendar a credential names must be one its issuer can read now (404 as for any other read). */
async function requireReadableInTx(tx: Transaction, issuer: CredentialIssuer, ids: readonly string[]): Promise<void> {
  const [calendars, memberships] = await Promise.all([
    tx.getAll(ids.map((id) => paths.calendar(id))),
    tx.getAll(ids.map((id) => paths.membership(issuer.agentId, id))),
  ]);
  ids.forEach((id, i) => {
    const calendar = calendars[i]?.data;
    const unknown = errors.notFound(`calendar \`${quote(id)}\``);
    if (!calendar) throw unknown;
    try {
      authorize(calendar, issuer, memberships[i]?.data.role ?? null, "calendar.read");
    } catch (err) {
      // The one refused among several is named, as free/busy names it.
      throw err instanceof DomainError && err.code === "not_found" ? unknown : err;
    }
  });
}

/**
 * Another credential of the issuer's agent, within its credential quota (the agent's counter is
 * written with it): never more than the issuer holds (domain/policy.ts, `authorizeIssue`), each
 * calendar one the issuer can read in this transaction. POST /v1/agent-credentials calls it for
 * the calling credential; a human's consent calls it for the agent they chose.
 */
export async function createCredential(
  tx: Transaction,
  deps: CommandDeps,
  issuer: CredentialIssuer,
  request: CredentialRequest,
) {
  const now = deps.clock();
  const terms = credentialTerms(issuer, request, now);
  authorizeIssue(issuer, terms);
  if (terms.calendars) await requireReadableInTx(tx, issuer, terms.calendars);
  const agent = await readAgent(tx, issuer.agentId);
  const counted = await takeQuota(deps, tx, "credentials_per_agent", agent);
  const agentNamed = { id: issuer.agentId, name: issuer.agentName };
  const tokenExpiresAt = request.token_expires_at ?? terms.expiresAt;
  const issued = issueCredential(tx, agentNamed, terms, request.label, now.toISOString(), tokenExpiresAt);
  writeCounter(tx, agent.path, counted);
  return issued;
}

/** The caller's agent record, which carries its quota counters. */
export async function readAgent(tx: Transaction, agentId: string) {
  const agent = await tx.get(paths.agent(agentId));
  // A token whose agent record is gone is as good as revoked.
  if (!agent) throw errors.invalidToken();
  return agent;
}

/**
 * Revokes one of the caller's credentials, never the last one that works (unrevoked and
 * unexpired: the agent would be locked out); its token is refused once this commits. A
 * restricted caller reaches only credentials restricted to calendars of its own.
 */
export async function revokeCredential(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  actor: Actor,
  credentialId: string,
): Promise<CredentialRecord> {
  const now = deps.clock();
  const nowIso = now.toISOString();
  const doc = await tx.get(paths.credential(actor.agentId, credentialId));
  if (!doc || doc.data.revoked_at || !reachesAll(actor, doc.data.calendars)) throw errors.notFound("credential");
  const unrevoked = await tx.query(paths.credentials(actor.agentId), { where: [["revoked_at", "==", null]] });
  if (!unrevoked.some((c) => c.id !== credentialId && credentialWorks(c.data, now))) throw errors.lastCredential();
  const [agent, oauthGrant] = await Promise.all([
    readAgent(tx, actor.agentId),
    tx.get(paths.oauthGrant(actor.agentId, credentialId)),
  ]);
  tx.update(doc.path, { revoked_at: nowIso });
  tx.update(paths.token(doc.data.token_hash), { revoked_at: nowIso });
  // An OAuth client's credential: its grant goes with it, off the account page.
  if (oauthGrant && !oauthGrant.data.revoked_at) tx.update(oauthGrant.path, { revoked_at: nowIso });
  writeCounter(tx, agent.path, releaseQuota("credentials_per_agent", agent));
  return { ...doc.data, revoked_at: nowIso };
}
