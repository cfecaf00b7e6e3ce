/**
 * Grant lookups inside a write's transaction: the commands that change grants and access
 * requests judge the caller's role and the last-owner rule from them.
 */
import type { StoredDoc, Transaction } from "../storage/port.js";
import { paths } from "./paths.js";
import type { GrantRecord } from "./records.js";
import type { Role } from "./types.js";

/**
 * The live owner grants, read inside the transaction that writes, so the last-owner rule holds
 * under races. Tombstones are dropped here rather than by a `revoked_at == null` filter: the
 * query stays one equality on one field.
 */
export async function liveOwnersInTx(tx: Transaction, calendarId: string): Promise<StoredDoc<GrantRecord>[]> {
  const owners = await tx.query(paths.grants(calendarId), { where: [["role", "==", "owner"]] });
  return owners.filter((g) => !g.data.revoked_at);
}

/** An agent's live role on a calendar, as its membership says (one read by id). */
export async function roleInTx(tx: Transaction, calendarId: string, agentId: string): Promise<Role | null> {
  return (await tx.get(paths.membership(agentId, calendarId)))?.data.role ?? null;
}

/** An agent's live grant on a calendar, found through its membership (two reads by id). */
export async function liveGrantInTx(
  tx: Transaction,
  calendarId: string,
  agentId: string,
): Promise<StoredDoc<GrantRecord> | null> {
  const membership = await tx.get(paths.membership(agentId, calendarId));
  if (!membership) return null;
  const grant = await tx.get(paths.grant(calendarId, membership.data.grant_id));
  return grant && !grant.data.revoked_at ? grant : null;
}
