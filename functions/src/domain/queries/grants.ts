import type { StoredDoc, Transaction } from "../../storage/port.js";
import type { Deps } from "../deps.js";
import { paginate, type Page, type PageRequest } from "../paging.js";
import { paths } from "../paths.js";
import type { AccessRequestRecord, GrantRecord } from "../records.js";
import type { AccessRequestStatus, Role } from "../types.js";

/** Every grant of a calendar, live and revoked, oldest first. */
export async function listGrants(deps: Deps, calendarId: string, page: PageRequest): Promise<Page<GrantRecord>> {
  const docs = await deps.store.query(paths.grants(calendarId));
  return paginate(
    docs.map((d) => d.data),
    page,
    (g) => [g.created_at, g.id],
    "asc",
  );
}

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

/** A calendar's access requests, newest first, optionally of one status. */
export async function listAccessRequests(
  deps: Deps,
  calendarId: string,
  filter: { status?: AccessRequestStatus },
  page: PageRequest,
): Promise<Page<AccessRequestRecord>> {
  const docs = await deps.store.query(paths.accessRequests(calendarId), {
    where: filter.status ? [["status", "==", filter.status]] : [],
  });
  return paginate(
    docs.map((d) => d.data),
    page,
    (r) => [r.created_at, r.id],
    "desc",
  );
}
