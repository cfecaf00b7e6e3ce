import type { Deps } from "../deps.js";
import { paginate, type Page, type PageRequest } from "../paging.js";
import { paths } from "../paths.js";
import type { AccessRequestRecord, GrantRecord } from "../records.js";
import type { AccessRequestStatus } from "../types.js";

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
