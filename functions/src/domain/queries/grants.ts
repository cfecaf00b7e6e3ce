import type { Deps } from "../deps.js";
import type { Page, PageRequest } from "../paging.js";
import { paths } from "../paths.js";
import type { AccessRequestRecord, GrantRecord } from "../records.js";
import type { AccessRequestStatus } from "../types.js";
import { pageByCreation } from "./creation-pages.js";

/** Every grant of a calendar, live and revoked, oldest first. */
export function listGrants(deps: Deps, calendarId: string, page: PageRequest): Promise<Page<GrantRecord>> {
  return pageByCreation(deps.store, paths.grants(calendarId), [], page, "asc");
}

/**
 * A calendar's access requests, newest first, optionally of one status (that filter and the
 * order make a composite index, firestore.indexes.json).
 */
export function listAccessRequests(
  deps: Deps,
  calendarId: string,
  filter: { status?: AccessRequestStatus },
  page: PageRequest,
): Promise<Page<AccessRequestRecord>> {
  const where = filter.status ? [["status", "==", filter.status] as const] : [];
  return pageByCreation(deps.store, paths.accessRequests(calendarId), where, page, "desc");
}
