import type { Transaction, StoredDoc } from "../../storage/port.js";
import type { Deps } from "../deps.js";
import { paginate, type Page, type PageRequest } from "../paging.js";
import { paths } from "../paths.js";
import type { AccessRequestRecord, AccessRequestStatus, GrantRecord, MembershipRecord } from "../types.js";

/** Every grant of a calendar, live and revoked, oldest first. */
export async function listGrants(deps: Deps, calendarId: string, page: PageRequest): Promise<Page<GrantRecord>> {
  const docs = await deps.store.query<GrantRecord>(paths.grants(calendarId));
  return paginate(
    docs.map((d) => d.data),
    page,
    (g) => [g.created_at, g.id],
    "asc",
  );
}

/** The live owner grants, read inside the transaction that writes, so the last-owner rule holds under races. */
export function liveOwnersInTx(tx: Transaction, calendarId: string): Promise<StoredDoc<GrantRecord>[]> {
  return tx.query<GrantRecord>(paths.grants(calendarId), {
    where: [
      ["role", "==", "owner"],
      ["revoked_at", "==", null],
    ],
  });
}

/** An agent's live grant on a calendar, found through its membership (two reads by id). */
export async function liveGrantInTx(tx: Transaction, calendarId: string, agentId: string): Promise<StoredDoc<GrantRecord> | null> {
  const membership = await tx.get<MembershipRecord>(paths.membership(agentId, calendarId));
  if (!membership) return null;
  const grant = await tx.get<GrantRecord>(paths.grant(calendarId, membership.data.grant_id));
  return grant && !grant.data.revoked_at ? grant : null;
}

/** A calendar's access requests, newest first, optionally of one status. */
export async function listAccessRequests(
  deps: Deps,
  calendarId: string,
  filter: { status?: AccessRequestStatus },
  page: PageRequest,
): Promise<Page<AccessRequestRecord>> {
  const docs = await deps.store.query<AccessRequestRecord>(paths.accessRequests(calendarId), {
    where: filter.status ? [["status", "==", filter.status]] : [],
  });
  return paginate(
    docs.map((d) => d.data),
    page,
    (r) => [r.created_at, r.id],
    "desc",
  );
}
