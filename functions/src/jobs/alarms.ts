/**
 * Alarms coming due, as a job (docs/decisions/alarms.md): a pass is one bounded tick, and every
 * transaction of it is opened here; the domain's steps (domain/alarms/) only take one.
 *
 * A tick first gives entries from before lanes theirs (backfill.ts, until done) and makes the
 * entries of calendars whose timezone changed due now (requeue.ts), then works in rounds: the
 * tenants and heads due (lanes.ts), the longest waiting first, claimed (turns.ts), each head
 * settling at most ENTRIES_PER_TURN of its lane's due entries, one transaction each (tick.ts),
 * then moved on in a transaction of its own: to its lane's next instant, or, when entries are
 * still due, behind every head waiting. So one calendar's thousands of alarms at one instant take
 * one turn per lane per round, and another calendar's alarm at that instant waits for at most one
 * turn of each head ahead of it. No transaction of a tick queries: the queries that find the work
 * and decide where heads go run outside them, so the tick's transactions never wait on each other
 * over a range one of them read (turns.ts).
 *
 * Locally the local driver runs passes (`npm start`: at once while a pass leaves work, else at
 * the earliest head's instant and at least every second); deployed, the scheduled function
 * `alarms` runs them for up to 45 s a minute (functions/src/index.ts).
 */
import { randomUUID } from "node:crypto";
import { setImmediate } from "node:timers";
import { backfillBatch, nextBackfillBatch } from "../domain/alarms/backfill.js";
import { dueHeadsOf, dueTenants, earliestTenant, turnMark } from "../domain/alarms/lanes.js";
import type { AlarmHeadRecord } from "../domain/alarms/records.js";
import { nextRequeueBatch, requeueBatch } from "../domain/alarms/requeue.js";
import { settleDueEntry, type EntrySeen, type Settled } from "../domain/alarms/tick.js";
import {
  claimTurn,
  firstAfterTurn,
  firstHeadOf,
  laneEntries,
  moveHeadOn,
  moveTenantOn,
  type AfterTurn,
} from "../domain/alarms/turns.js";
import type { Deps, InstanceMemory } from "../domain/deps.js";
import { withShardLeases } from "../domain/shard-leases.js";
import { budgetOf, timeLeft, type Budget, type Job, type JobDeps } from "./pass.js";

/** The longest the local driver waits between passes, whatever the queue says. */
export const ALARM_IDLE_MS = 1_000;
/** A pass's time when a driver runs it on its own: a tick stops starting rounds after it. */
export const ALARM_PASS_MS = 5_000;
/** Tenants one round takes. */
export const TENANTS_PER_ROUND = 32;
/**
 * Heads one round takes, shared among the tenants due: an agent's share of a round, however many
 * calendars it has, is this over the tenants due, and at least HEADS_PER_TENANT.
 */
export const HEADS_PER_ROUND = 64;
export const HEADS_PER_TENANT = 4;
/** Entries one head's turn settles at most: a few, so that every head due gets its turn soon. */
export const ENTRIES_PER_TURN = 4;
/** Transactions of a round at once: on Firestore each is a few round trips, so they overlap. */
const AT_ONCE = 16;
/** Batches of requeued entries (a timezone change) a tick makes due before its rounds. */
const REQUEUE_BATCHES = 5;
/** Batches of the backfill of entries from before lanes a tick runs before its rounds. */
const BACKFILL_BATCHES = 5;

/** `memory`: the instance's, so the tick's settlings and its writes share shard leases (domain/shard-leases.ts). */
export type AlarmJobDeps = JobDeps & Pick<Deps, "config"> & Partial<Pick<Deps, "memory">>;

export interface TickResult {
  /** Entries taken up. */
  due: number;
  /** Alarm changes recorded. */
  fired: number;
  /** Head turns taken. */
  turns: number;
  /** Rounds run. */
  rounds: number;
  /** Tenants were still due when the budget ran out: tick again at once. */
  more: boolean;
  /** When the earliest tenant falls due (epoch ms), null when the queue is empty; only when not `more`. */
  nextDueAt: number | null;
}

/** Stores whose backfill this process has seen done: it costs them no read again. */
const backfilled = new WeakSet<object>();
/** Turn marks taken by this process, in order (lanes.ts `turnMark`). */
let turns = 0;

/**
 * One tick: what is due at `now` (the clock's at each round when absent), within `budget`
 * (ALARM_PASS_MS when absent).
 */
export async function runAlarmTick(
  deps: AlarmJobDeps,
  options: { budget?: Budget; now?: Date } = {},
): Promise<TickResult> {
  const budget = options.budget ?? budgetOf(ALARM_PASS_MS);
  const clock = () => options.now ?? deps.clock();
  const result: TickResult = { due: 0, fired: 0, turns: 0, rounds: 0, more: false, nextDueAt: null };
  await backfill(deps, clock().toISOString());
  for (let batch = 0; batch < REQUEUE_BATCHES; batch++) {
    const next = await nextRequeueBatch(deps.store);
    if (!next) break;
    const nowIso = clock().toISOString();
    await deps.store.runTransaction((tx) => requeueBatch(tx, next, nowIso));
  }
  const slots = limiter(AT_ONCE);
  for (;;) {
    const now = clock();
    const nowIso = now.toISOString();
    const tenants = await dueTenants(deps.store, nowIso, TENANTS_PER_ROUND);
    if (tenants.length === 0) break;
    if (result.rounds > 0 && timeLeft(budget) <= 0) {
      result.more = true;
      break;
    }
    result.rounds += 1;
    const round: Round = { now, nowIso, mark: turnMark(nowIso, ++turns), claim: randomUUID() };
    const share = Math.max(HEADS_PER_TENANT, Math.floor(HEADS_PER_ROUND / tenants.length));
    const claims = await Promise.all(
      tenants.map(async ({ data: { tenant } }) => {
        const found = await dueHeadsOf(deps.store, tenant, nowIso, share);
        const claimed = await slots(() =>
          deps.store.runTransaction((tx) => claimTurn(tx, tenant, found, nowIso, round.claim)),
        );
        return { tenant, ...claimed };
      }),
    );
    const turn = async (head: AlarmHeadRecord) => {
      const taken = await takeTurn(deps, slots, head, round);
      result.due += taken.due;
      result.fired += taken.fired;
      result.turns += 1;
    };
    // With several tenants, every one's first turn before anyone's second, those with the fewest
    // heads first: on a store whose queries take long (the emulator scans the whole queue), one
    // alarm of a tenant does not wait behind the queries of another's hundreds of heads.
    claims.sort((a, b) => a.heads.length - b.heads.length);
    const firstWave = claims.filter((c) => c.heads.length > 0).length > 1 ? 1 : 0;
    await Promise.all(claims.map(({ heads }) => Promise.all(heads.slice(0, firstWave).map(turn))));
    await Promise.all(
      claims.map(async ({ tenant, heads, tenantClaimed }) => {
        await Promise.all(heads.slice(firstWave).map(turn));
        if (!tenantClaimed) return;
        const first = await firstHeadOf(deps.store, tenant);
        await slots(() => deps.store.runTransaction((tx) => moveTenantOn(tx, tenant, round.claim, first, round)));
      }),
    );
    // Let requests of this instance in between rounds.
    await new Promise((done) => setImmediate(done));
  }
  if (!result.more) result.nextDueAt = await earliestTenant(deps.store);
  return result;
}

type Slots = <R>(fn: () => Promise<R>) => Promise<R>;

/** A round's instant, the mark of what it leaves due, and the token of its claims (domain/alarms/turns.ts). */
interface Round {
  now: Date;
  nowIso: string;
  mark: string;
  claim: string;
}

/**
 * One claimed head's turn: up to ENTRIES_PER_TURN of its lane's due entries settled, then the
 * head moved on by what its lane holds after them, read outside any transaction (one query).
 */
async function takeTurn(
  deps: AlarmJobDeps,
  slots: Slots,
  head: AlarmHeadRecord,
  round: Round,
): Promise<{ due: number; fired: number; after: AfterTurn }> {
  const { calendar_id: calendarId, event_id: named } = head;
  // The entry the head names is settled beside the query, not after it: a lane's one alarm
  // waits for no query (on the emulator, a scan of the whole queue).
  const [namedSettled, found] = await Promise.all([
    named ? slots(() => settle(deps, { calendar_id: calendarId, event_id: named }, round.now)) : null,
    // One entry past the turn's: the earliest of those left when every one of the turn's was due.
    laneEntries(deps.store, head, ENTRIES_PER_TURN + 1),
  ]);
  const others = found.filter((entry) => entry.data.event_id !== named);
  const quota = ENTRIES_PER_TURN - (named ? 1 : 0);
  const due = others.slice(0, quota).filter((entry) => entry.data.due_at <= round.nowIso);
  const settled = await Promise.all(
    due.map(async (entry) => ({
      event_id: entry.data.event_id,
      ...(await slots(() => settle(deps, entry.data, round.now))),
    })),
  );
  if (named && namedSettled) settled.push({ event_id: named, ...namedSettled });
  const first = firstAfterTurn(others[due.length], settled);
  const after = await slots(() => deps.store.runTransaction((tx) => moveHeadOn(tx, head, round.claim, first, round)));
  return {
    due: settled.length,
    fired: settled.reduce((sum, s) => sum + s.fired, 0),
    after,
  };
}

/** One entry settled in a transaction of its own. */
function settle(deps: AlarmJobDeps, entry: EntrySeen, now: Date): Promise<Settled> {
  // Settlings of one calendar that share an alarm shard take it one after another, in memory
  // (domain/shard-leases.ts), not in turn after the store aborts one of them.
  return withShardLeases(memoryOf(deps), (enter) =>
    deps.store.runTransaction((tx) => {
      enter(tx);
      return settleDueEntry(tx, deps, entry, now);
    }),
  );
}

/** Without the instance's memory, the tick's own per store: its settlings still never meet on a shard. */
const tickMemories = new WeakMap<object, InstanceMemory>();
function memoryOf(deps: AlarmJobDeps): InstanceMemory {
  if (deps.memory) return deps.memory;
  let memory = tickMemories.get(deps.store);
  if (!memory) tickMemories.set(deps.store, (memory = {}));
  return memory;
}

/** Entries from before lanes get theirs, a few batches a tick, until the pass over the queue is done. */
async function backfill(deps: AlarmJobDeps, nowIso: string): Promise<void> {
  if (backfilled.has(deps.store)) return;
  for (let batch = 0; batch < BACKFILL_BATCHES; batch++) {
    const next = await nextBackfillBatch(deps.store);
    if (!next) {
      backfilled.add(deps.store);
      return;
    }
    await deps.store.runTransaction((tx) => backfillBatch(tx, next, nowIso));
  }
}

/** At most `n` of the functions it is handed run at once; the others wait their turn, in order. */
function limiter(n: number): Slots {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (fn) => {
    if (running >= n) await new Promise<void>((go) => waiting.push(go));
    else running += 1;
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}

export const alarmsJob: Job<AlarmJobDeps> = {
  name: "alarms",
  idleMs: ALARM_IDLE_MS,
  passMs: ALARM_PASS_MS,
  async run(deps, budget) {
    const result = await runAlarmTick(deps, { budget });
    return { done: result.fired, more: result.more, nextDueAt: result.nextDueAt };
  },
};
