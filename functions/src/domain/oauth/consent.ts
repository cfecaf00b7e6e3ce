/**
 * The consent steps of the authorization server (docs/mcp.md#authorization): a client's
 * authorization request waits for the human (`startAuthorization`), who allows it for one of
 * their agents, or a new one claimed at once (`allowAuthorization`), or denies it. Each step
 * runs in the transaction its caller hands it.
 */
import type { StoredDoc, Transaction } from "../../storage/port.js";
import { accountAgent } from "../commands/accounts.js";
import { createCalendarInTx } from "../commands/create-calendar.js";
import type { CommandDeps } from "../deps.js";
import { errors } from "../errors.js";
import { newId, randomString, sha256 } from "../ids.js";
import { paths } from "../paths.js";
import { newAgentCounters } from "../quotas.js";
import type { AgentRecord } from "../records.js";
import type { Scope } from "../types.js";
import { later, OAUTH_LIFETIMES } from "./lifetimes.js";
import type { OAuthRequestRecord } from "./records.js";

export interface AuthorizationRequest {
  clientId: string;
  clientName: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: Scope[];
  state: string | null;
}

/** Keeps the request for the consent page; its id is the page's address. */
export function startAuthorization(tx: Transaction, deps: Pick<CommandDeps, "clock">, request: AuthorizationRequest) {
  const now = deps.clock();
  const expires = later(now, OAUTH_LIFETIMES.consentMs);
  const requestId = sha256(randomString(43));
  const record: OAuthRequestRecord = {
    client_id: request.clientId,
    client_name: request.clientName,
    redirect_uri: request.redirectUri,
    code_challenge: request.codeChallenge,
    scopes: request.scopes,
    state: request.state,
    created_at: now.toISOString(),
    expires_at: expires.toISOString(),
    purge_at: later(expires, OAUTH_LIFETIMES.keptAfterMs),
  };
  tx.create(paths.oauthRequest(requestId), record);
  return requestId;
}

/** A request the consent page may still answer; 404 when unknown, expired or answered. */
export async function openRequest(
  tx: Pick<Transaction, "get">,
  now: Date,
  requestId: string,
): Promise<StoredDoc<OAuthRequestRecord>> {
  const doc = /^[0-9a-f]{64}$/.test(requestId) ? await tx.get(paths.oauthRequest(requestId)) : null;
  if (!doc || doc.data.expires_at <= now.toISOString()) throw errors.notFound("authorization request");
  return doc;
}

export type AgentChoice = { agentId: string } | { newAgentName: string };

export interface Consent {
  agent: AgentChoice;
  /** Within the request's scopes. */
  scopes: Scope[];
  /** Calendars the agent holds a role on; null for every one. */
  calendars: string[] | null;
}

/** Where the browser goes next: the client's redirect URI with `code` or `error`, and `state`. */
export interface ConsentAnswer {
  redirectUri: string;
  params: Record<string, string>;
}

/**
 * The human allows the request: an authorization code for the chosen agent (a new agent is
 * created claimed by the human, with a first calendar of its name), the scopes and calendars
 * chosen. The request is spent in the same transaction.
 */
export async function allowAuthorization(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  userId: string,
  requestId: string,
  consent: Consent,
): Promise<ConsentAnswer> {
  const now = deps.clock();
  const nowIso = now.toISOString();
  const request = await openRequest(tx, now, requestId);
  const scopes = consent.scopes.filter((scope) => request.data.scopes.includes(scope));
  if (scopes.length === 0)
    throw errors.invalidField("invalid_request", "scopes", "choose at least one of the scopes the app asks for");
  const agent =
    "agentId" in consent.agent
      ? (await accountAgent(tx, userId, consent.agent.agentId)).data
      : await createClaimedAgent(tx, userId, consent.agent.newAgentName, nowIso);
  if (consent.calendars && "agentId" in consent.agent) await requireHeld(tx, agent.id, consent.calendars);
  const code = randomString(43);
  const expires = later(now, OAUTH_LIFETIMES.codeMs);
  tx.create(paths.oauthCode(sha256(code)), {
    client_id: request.data.client_id,
    redirect_uri: request.data.redirect_uri,
    code_challenge: request.data.code_challenge,
    user_id: userId,
    agent_id: agent.id,
    scopes,
    calendars: consent.calendars,
    created_at: nowIso,
    expires_at: expires.toISOString(),
    used_at: null,
    credential_id: null,
    purge_at: later(expires, OAUTH_LIFETIMES.keptAfterMs),
  });
  tx.delete(request.path);
  return answer(request.data, { code });
}

/** The human denies the request: the client hears `access_denied`. */
export async function denyAuthorization(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  requestId: string,
): Promise<ConsentAnswer> {
  const request = await openRequest(tx, deps.clock(), requestId);
  tx.delete(request.path);
  return answer(request.data, { error: "access_denied", error_description: "the person declined the request" });
}

const answer = (request: OAuthRequestRecord, params: Record<string, string>): ConsentAnswer => ({
  redirectUri: request.redirect_uri,
  params: request.state === null ? params : { ...params, state: request.state },
});

async function requireHeld(tx: Pick<Transaction, "getAll">, agentId: string, calendarIds: string[]): Promise<void> {
  const held = await tx.getAll(calendarIds.map((calendarId) => paths.membership(agentId, calendarId)));
  if (held.some((membership) => !membership)) throw errors.notFound("calendar");
}

/** A new agent linked to the account from the start, with a first calendar of its name and no credential yet. */
async function createClaimedAgent(tx: Transaction, userId: string, name: string, nowIso: string): Promise<AgentRecord> {
  const agent: AgentRecord = { id: newId("agt"), name, created_at: nowIso, owner_user_id: userId };
  await createCalendarInTx(tx, { agentId: agent.id, agentName: name }, { name }, nowIso);
  // Its credentials come with the code's exchange, each counted then.
  tx.create(paths.agent(agent.id), { ...agent, ...newAgentCounters(), live_credential_count: 0 });
  return agent;
}
