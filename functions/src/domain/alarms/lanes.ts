/**
 * Lanes, heads and tenants: how a tick takes the queue agent by agent, and within an agent
 * calendar by calendar (docs/decisions/alarms.md, "Fair per agent and per calendar").
 *
 * Each entry is in one of its calendar's ALARM_LANES lanes, a hash of its event id. Each lane
 * that holds an entry has a head, `alarm_heads/{calendarId}-{lane}`, whose `due_at` is never
 * later than the lane's earliest entry; each tenant (the agent whose calendar it is) that holds a
 * head has a tenant head, `alarm_tenants/{tenant}`, never later than its earliest head. A tick
 * takes the due tenants (one single-field query), for each a few of its due heads (one query,
 * tenant and due_at), and for each head a few due entries (one query, calendar, lane and
 * due_at); then it moves each head, and each tenant, on: to its next instant when that is ahead,
 * else to a turn mark after everything still waiting at that instant. So an agent with 30,000
 * alarms at one instant takes one turn per round like an agent with one, and among its own
 * calendars each lane takes one turn per round of the agent's.
 *
 * The invariants (a head at or before its lane's earliest entry, a tenant at or before its
 * earliest head, or either due while what it stands for is) hold under concurrency because both
 * sides meet on a document: an event write that queues an entry reads its lane's head in its
 * transaction and writes it when it must come earlier, when it is due, or when a tick's turn has
 * claimed it (turns.ts), always without the claim; when it writes a head earlier, or a new one,
 * it does the same with the tenant. A tick claims a head or tenant before it queries what is
 * under it, outside any transaction, and moves it on only in a transaction that finds its claim
 * still there. A head or tenant earlier than what it stands for costs one turn that settles
 * nothing, then moves on.
 */
import type { StoredDoc, Transaction, TransactionReads } from "../../storage/port.js";
import { sha256 } from "../ids.js";
import { paths } from "../paths.js";
import type { AlarmQueueRecord, CalendarRecord } from "../records.js";
import type { AlarmHeadRecord, AlarmTenantRecord } from "./records.js";

/** Lanes per calendar: how far one calendar's event writes spread over heads. */
export const ALARM_LANES = 8;

export type AlarmHead = StoredDoc<AlarmHeadRecord>;
export type AlarmTenant = StoredDoc<AlarmTenantRecord>;

/** The lane of an event's entry: always the same for the event. */
export const laneOf = (eventId: string): number => Number.parseInt(sha256(eventId).slice(0, 8), 16) % ALARM_LANES;

/** Whose alarms a calendar's are: the agent that created it, or the calendar itself when older than that field. */
export const tenantOf = (calendar: Pick<CalendarRecord, "id" | "created_by">): string =>
  calendar.created_by ?? calendar.id;

/**
 * The highest `due_at` that is due at `nowIso`: every instant up to it and every turn mark
 * taken at it (`<instant>#...` sorts after the instant, `~` after `#`, and both before the next
 * millisecond's instant, ISO instants being of one length).
 */
export const dueBound = (nowIso: string): string => `${nowIso}~`;

/** What a head or tenant that keeps work due after its turn at `nowIso` becomes: after everything waiting at that instant. */
export const turnMark = (nowIso: string, turn: number): string => `${nowIso}#${String(turn).padStart(12, "0")}`;

/** The instant a `due_at` stands for (a turn mark's instant). */
export const instantOf = (dueAt: string): number => Date.parse(dueAt.slice(0, 24));

/** What an event write reads of the index for the entry it stores: its lane's head, and the tenant when the head must move. */
export interface HeadReads {
  head: AlarmHead | null;
  tenant: AlarmTenant | null;
}

/**
 * Reads, with a write's other reads, the head of the lane `entry` goes in, and its tenant when
 * that head is to be written earlier or created (`keepAhead` then writes them).
 */
export async function readHeads(reads: TransactionReads, entry: AlarmQueueRecord, tenant: string): Promise<HeadReads> {
  const head = await reads.get(paths.alarmHead(entry.calendar_id, laneOf(entry.event_id)));
  const lowers = head === null || entry.due_at < head.data.due_at;
  return { head, tenant: lowers ? await reads.get(paths.alarmTenant(tenant)) : null };
}

/**
 * For a write that stores `entry` (its heads read in the same transaction by `readHeads`): the
 * lane's head comes to the entry's instant when it is later, and the tenant to the head's; each
 * is written unchanged, without a claim, when it is due or claimed, so that a tick moving it on
 * meets this write (see the top of this file). Otherwise they stay.
 */
export const keepAhead = (tx: Transaction, read: HeadReads, entry: AlarmQueueRecord, tenant: string, nowIso: string) =>
  keepAheadAll(tx, [read], [entry], tenant, nowIso);

/**
 * `keepAhead` for several entries of one tenant stored by one write (an import's batch), each
 * with its lane's reads, at most one entry per lane: each document is written once, the
 * tenant at the earliest of the heads this write lowers.
 */
export function keepAheadAll(
  tx: Transaction,
  reads: readonly HeadReads[],
  entries: readonly AlarmQueueRecord[],
  tenant: string,
  nowIso: string,
): void {
  let lowest: { read: HeadReads; tenant: string; dueAt: string } | null = null;
  entries.forEach((entry, i) => {
    const read = reads[i];
    const { head } = read;
    if (head === null || entry.due_at < head.data.due_at) {
      const owner = head?.data.tenant ?? tenant;
      tx.set(paths.alarmHead(entry.calendar_id, laneOf(entry.event_id)), {
        calendar_id: entry.calendar_id,
        lane: laneOf(entry.event_id),
        tenant: owner,
        due_at: entry.due_at,
        event_id: entry.event_id,
      });
      if (lowest === null || entry.due_at < lowest.dueAt) lowest = { read, tenant: owner, dueAt: entry.due_at };
    } else if (head.data.claim !== undefined || head.data.due_at <= dueBound(nowIso)) {
      const { claim: _claim, ...unclaimed } = head.data;
      tx.set(head.path, unclaimed);
    }
  });
  const found = lowest as { read: HeadReads; tenant: string; dueAt: string } | null;
  if (found) keepTenantAhead(tx, found.read.tenant, found.tenant, found.dueAt, nowIso);
}

/**
 * The tenant head comes to `dueAt` when it is later, and is written unchanged, without a claim,
 * when due or claimed (it was read in this transaction).
 */
export function keepTenantAhead(
  tx: Transaction,
  current: AlarmTenant | null,
  tenant: string,
  dueAt: string,
  nowIso: string,
): void {
  if (current === null || dueAt < current.data.due_at) tx.set(paths.alarmTenant(tenant), { tenant, due_at: dueAt });
  else if (current.data.claim !== undefined || current.data.due_at <= dueBound(nowIso))
    tx.set(current.path, { tenant, due_at: current.data.due_at });
}

/** The tenants due at `nowIso`, the longest waiting first. */
export const dueTenants = (reads: TransactionReads, nowIso: string, limit: number): Promise<AlarmTenant[]> =>
  reads.query(paths.alarmTenants(), {
    where: [["due_at", "<=", dueBound(nowIso)]],
    orderBy: [["due_at", "asc"]],
    limit,
  });

/** When the earliest tenant falls due (epoch ms), or null when the queue is empty. */
export async function earliestTenant(reads: TransactionReads): Promise<number | null> {
  const [first] = await reads.query(paths.alarmTenants(), { orderBy: [["due_at", "asc"]], limit: 1 });
  return first ? instantOf(first.data.due_at) : null;
}

/** A tenant's heads due at `nowIso`, the longest waiting first (a composite index: tenant, due_at). */
export const dueHeadsOf = (
  reads: TransactionReads,
  tenant: string,
  nowIso: string,
  limit: number,
): Promise<AlarmHead[]> =>
  reads.query(paths.alarmHeads(), {
    where: [
      ["tenant", "==", tenant],
      ["due_at", "<=", dueBound(nowIso)],
    ],
    orderBy: [["due_at", "asc"]],
    limit,
  });
