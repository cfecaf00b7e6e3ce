import type { Actor } from "../domain/actor.js";
import type { Deps } from "../domain/deps.js";
import { sha256 } from "../domain/ids.js";
import { paths } from "../domain/paths.js";
import { errors } from "../domain/errors.js";
import { httpErrors } from "./errors.js";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Turns the Authorization header into an Actor: null when no header was sent, a 401 when a
 * header was sent but is malformed, unknown, revoked or expired. One read, by token hash.
 */
export async function authenticate(deps: Deps, header: string | undefined): Promise<Actor | null> {
  if (header === undefined || header === "") return null;
  const match = BEARER.exec(header);
  if (!match) throw httpErrors.unauthorized("the Authorization header must be `Bearer <token>`");
  const doc = await deps.store.get(paths.token(sha256(match[1])));
  const token = doc?.data;
  if (!token || token.revoked_at) throw errors.invalidToken();
  if (token.expires_at && token.expires_at <= deps.clock().toISOString()) throw errors.invalidToken();
  return {
    agentId: token.agent_id,
    agentName: token.agent_name,
    credentialId: token.credential_id,
    scopes: token.scopes,
    calendars: token.calendars ?? null,
    expiresAt: token.expires_at,
  };
}
