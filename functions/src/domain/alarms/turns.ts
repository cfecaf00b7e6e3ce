/**
 * A tick's turn of a tenant and its heads (lanes.ts), in the transactions the alarms job opens:
 * claimed, then moved on. No transaction here queries: a query in a transaction locks what it
 * ranges over against every write there (the Firestore emulator locks the whole collection, of
 * every calendar), so the settlings of a round, all writing queue entries, waited on each move
 * that queried the queue. The queries that decide where a head or tenant goes run outside, and
 * a claim keeps their answer true:
 *
 * 1. `claimTurn` writes a token on the tenant and each of its heads still due. An event write
 *    that reads one afterwards writes it without the token (lanes.ts `keepAhead`,
 *    `keepTenantAhead`); one that read it before holds it, so the claim commits after that write.
 * 2. The job reads the lane's first entries (`laneEntries`) and settles those due (and the one
 *    the head names): the entries left and where the settlings left theirs tell the lane's
 *    earliest entry (`firstAfterTurn`); after the heads' turns it reads the tenant's earliest head
 *    (`firstHeadOf`). Every write before the claim is seen.
 * 3. `moveHeadOn` / `moveTenantOn` read the document by path and move it on only while the token
 *    is still there: no write has queued an entry, or lowered a head, since the query. Otherwise
 *    it stays as that write left it, due, and the next round takes it again.
 */
import type { StoredDoc, Transaction, TransactionReads } from "../../storage/port.js";
import { paths } from "../paths.js";
import type { AlarmQueueRecord } from "../records.js";
import { dueBound, type AlarmHead } from "./lanes.js";
import type { AlarmHeadRecord } from "./records.js";

/** What became of a head or tenant after its turn: work still due, its next instant ahead, nothing left, or a write came between. */
export type AfterTurn = "due" | "ahead" | "gone" | "kept";

/** What a turn claimed: whether the tenant, and which of the heads (as they now stand). */
export interface Claimed {
  tenantClaimed: boolean;
  heads: AlarmHeadRecord[];
}

/**
 * Claims `tenant` and those of `heads` (found by a query) still due at `nowIso`, with `claim`, a
 * token no other turn uses.
 */
export async function claimTurn(
  tx: Transaction,
  tenant: string,
  heads: readonly AlarmHead[],
  nowIso: string,
  claim: string,
): Promise<Claimed> {
  const [current, ...stored] = await tx.getAll([paths.alarmTenant(tenant), ...heads.map((h) => h.path)]);
  const bound = dueBound(nowIso);
  const due = stored.filter((head) => head !== null && head.data.due_at <= bound) as AlarmHead[];
  for (const head of due) tx.set(head.path, { ...head.data, claim });
  const tenantDue = current !== null && current.data.due_at <= bound;
  if (tenantDue) tx.set(paths.alarmTenant(tenant), { tenant, due_at: current.data.due_at, claim });
  return { tenantClaimed: tenantDue, heads: due.map((head) => head.data) };
}

/** The lane's `limit` earliest entries, due or not (a composite index: calendar_id, lane, due_at). */
export const laneEntries = (
  reads: TransactionReads,
  head: AlarmHeadRecord,
  limit: number,
): Promise<StoredDoc<AlarmQueueRecord>[]> =>
  reads.query(paths.alarmQueue(), {
    where: [
      ["calendar_id", "==", head.calendar_id],
      ["lane", "==", head.lane],
    ],
    orderBy: [["due_at", "asc"]],
    limit,
  });

/** The lane's earliest entry after a turn: its instant, and its event when known. */
export interface FirstEntry {
  due_at: string;
  event_id?: string;
}

/**
 * The lane's earliest entry after a turn, from the entries its one query found and the turn did
 * not settle (`left`, earliest first, read after the claim; the first of them comes before any
 * entry past the query's limit) and where each settling left its entry (`settled`).
 */
export function firstAfterTurn(
  left: StoredDoc<AlarmQueueRecord> | undefined,
  settled: ReadonlyArray<{ event_id: string; next: string | null }>,
): FirstEntry | null {
  const candidates: FirstEntry[] = settled.flatMap((s) => (s.next ? [{ due_at: s.next, event_id: s.event_id }] : []));
  if (left) candidates.push({ due_at: left.data.due_at, event_id: left.data.event_id });
  return candidates.reduce<FirstEntry | null>((a, b) => (a === null || b.due_at < a.due_at ? b : a), null);
}

/** The tenant's earliest head, or null when it has none. */
export async function firstHeadOf(reads: TransactionReads, tenant: string): Promise<string | null> {
  const [first] = await reads.query(paths.alarmHeads(), {
    where: [["tenant", "==", tenant]],
    orderBy: [["due_at", "asc"]],
    limit: 1,
  });
  return first ? first.data.due_at : null;
}

/**
 * Where a head or tenant goes after its turn, from what is under it (`first`, read after the
 * claim): to `first` when that is ahead of `nowIso`, to `mark` when it is due, away when null.
 */
const target = (first: string | null, nowIso: string, mark: string): { dueAt: string | null; after: AfterTurn } => {
  if (first === null) return { dueAt: null, after: "gone" };
  return first <= dueBound(nowIso) ? { dueAt: mark, after: "due" } : { dueAt: first, after: "ahead" };
};

/** After a head's turn: moved on as `target` says, while `claim` is still on it (see the top of this file). */
export async function moveHeadOn(
  tx: Transaction,
  head: AlarmHeadRecord,
  claim: string,
  first: FirstEntry | null,
  turn: { nowIso: string; mark: string },
): Promise<AfterTurn> {
  const ref = paths.alarmHead(head.calendar_id, head.lane);
  const current = await tx.get(ref);
  if (current?.data.claim !== claim) return "kept";
  const { dueAt, after } = target(first?.due_at ?? null, turn.nowIso, turn.mark);
  if (dueAt === null) tx.delete(ref);
  else
    tx.set(ref, {
      calendar_id: head.calendar_id,
      lane: head.lane,
      tenant: current.data.tenant,
      due_at: dueAt,
      ...(first?.event_id ? { event_id: first.event_id } : {}),
    });
  return after;
}

/** After a tenant's turn: moved on as `target` says, while `claim` is still on it. */
export async function moveTenantOn(
  tx: Transaction,
  tenant: string,
  claim: string,
  first: string | null,
  turn: { nowIso: string; mark: string },
): Promise<AfterTurn> {
  const ref = paths.alarmTenant(tenant);
  const current = await tx.get(ref);
  if (current?.data.claim !== claim) return "kept";
  const { dueAt, after } = target(first, turn.nowIso, turn.mark);
  if (dueAt === null) tx.delete(ref);
  else tx.set(ref, { tenant, due_at: dueAt });
  return after;
}
