/**
 * What a delivery stream reads of the change feed, in one read-only transaction (one consistent
 * cut, as GET .../changes reads): whether the webhook's agent still stands (its record exists and
 * it holds a working credential: a revoked agent's webhooks stop at once) and may still read the
 * calendar, the shard counters, and the changes after the stream's positions, read and merged by
 * the feed's own reader (queries/change-reader.ts); a stream keeps its positions in the store,
 * where GET .../changes takes them from a signed cursor.
 */
import type { QueryOf, TransactionReads } from "../../storage/port.js";
import { readCounters } from "../change-watch.js";
import { paths } from "../paths.js";
import { credentialWorks, mayRead } from "../policy.js";
import { readChangesAfter } from "../queries/change-reader.js";
import type { ChangeRecord, CredentialRecord } from "../records.js";
import type { AccessLoss } from "./records.js";

export interface StreamPage {
  /**
   * False when the agent may no longer read the calendar: revoked (no live credential left, or
   * no agent record), a grant revoked, the calendar private or gone. No change was read then.
   */
  allowed: boolean;
  /** Why not, set whenever `allowed` is false: `agent_revoked` or `no_access`. */
  denied?: AccessLoss;
  /** A change after the positions is already purged: the stream must skip to `counters`. */
  expired: boolean;
  counters: number[];
  /** In delivery order, `seq` counted as the feed counts it (the sum of the positions after each). */
  changes: Array<{ seq: number; change: ChangeRecord }>;
}

export async function readStreamPage(
  reads: TransactionReads,
  agentId: string,
  calendarId: string,
  positions: readonly number[],
  page: { limit: number; now: Date; shards: number },
): Promise<StreamPage> {
  const { limit, now, shards } = page;
  const [agent, unrevoked, calendar, membership, counters] = await Promise.all([
    reads.get(paths.agent(agentId)),
    reads.query(paths.credentials(agentId), UNREVOKED_FIRST),
    reads.get(paths.calendar(calendarId)),
    reads.get(paths.membership(agentId, calendarId)),
    readCounters(reads, calendarId, shards),
  ]);
  if (!agent || !(await holdsWorkingCredential(reads, agentId, unrevoked, now))) {
    return refused("agent_revoked", counters);
  }
  // The webhook was created with calendar:read; the agent's role decides whether it still reads.
  const actor = {
    agentId,
    agentName: "",
    credentialId: "",
    scopes: ["calendar:read"] as const,
    calendars: null,
    expiresAt: null,
  };
  if (!calendar || !mayRead(calendar.data, actor, membership?.data.role ?? null)) {
    return refused("no_access", counters);
  }
  const pending = counters.filter((c, n) => c > (positions[n] ?? 0)).length;
  // A share of the batch from each shard with changes, not the whole batch from each: the merge
  // stops where a shard's share runs out, so fewer changes are read than a batch would hold.
  const share = pending === 0 ? 0 : Math.ceil(limit / pending) + 1;
  const read = await readChangesAfter(reads, calendarId, { counters, positions, limit, perShard: share, now });
  if (!read) return { allowed: true, expired: true, counters, changes: [] };
  return { allowed: true, expired: false, counters, changes: read.changes };
}

const UNREVOKED = { where: [["revoked_at", "==", null]], select: ["expires_at"] } satisfies QueryOf<CredentialRecord>;
const UNREVOKED_FIRST = { ...UNREVOKED, limit: 1 };

/**
 * Revoked = no working credential left, none unrevoked and unexpired (docs/decisions/accounts.md),
 * as every token of the agent then answers 401. One credential read when the first unrevoked
 * one never expires or has not yet (as an agent's mint credential); else every unrevoked one,
 * at most the credential quota.
 */
async function holdsWorkingCredential(
  reads: TransactionReads,
  agentId: string,
  first: ReadonlyArray<{ data: Pick<CredentialRecord, "expires_at"> }>,
  now: Date,
): Promise<boolean> {
  if (first.length === 0) return false;
  if (credentialWorks(first[0].data, now)) return true;
  return (await reads.query(paths.credentials(agentId), UNREVOKED)).some((doc) => credentialWorks(doc.data, now));
}

const refused = (denied: AccessLoss, counters: number[]): StreamPage => ({
  allowed: false,
  denied,
  expired: false,
  counters,
  changes: [],
});
