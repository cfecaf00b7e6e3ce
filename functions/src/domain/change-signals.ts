/**
 * Wakes the change-feed requests of this process that wait on a calendar (long-poll,
 * domain/queries/changes.ts) as soon as a write records a change there. In-process only: a
 * waiter on another instance learns of the change when it next reads the store.
 *
 * The signal is sent from inside the writing transaction (recordChange), one event-loop turn
 * later, so it can come before that transaction commits (or for one that then fails): a woken
 * waiter reads the store and, finding nothing yet, looks again shortly.
 */
// From node:timers, not the globals: fake timers in a test must not hold a waiter back.
import { clearTimeout, setImmediate, setTimeout } from "node:timers";
import type { Transaction } from "../storage/port.js";

/**
 * What a request that holds its answer needs from the protocol layer, which alone knows the
 * connection and the credentials it came with (http/route.ts builds it for every operation).
 * A waiting query takes it as a required argument, so no waiting path can leave it out.
 */
export interface WaitGuard {
  /** Aborted when the client has gone before its answer was sent: stop, and read nothing more. */
  signal: AbortSignal;
  /**
   * Authenticates the request's credentials again and re-applies the operation's access policy,
   * reading through `tx` (the same transaction as what is about to be answered); throws the
   * refusal (401, 403, 404) when the caller may no longer have the answer.
   */
  stillAllowed(tx: Transaction): Promise<void>;
}

const waiting = new Map<string, Set<() => void>>();

export function signalChange(calendarId: string): void {
  setImmediate(() => {
    for (const wake of waiting.get(calendarId) ?? []) wake();
  });
}

/**
 * Resolves true when a change of the calendar is signalled, false after `ms` without one, or at
 * once when `abort` is aborted (the caller checks it).
 */
export function nextSignal(calendarId: string, ms: number, abort: AbortSignal): Promise<boolean> {
  if (abort.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const set = waiting.get(calendarId) ?? new Set();
    waiting.set(calendarId, set);
    const done = (signalled: boolean) => {
      clearTimeout(timer);
      abort.removeEventListener("abort", aborted);
      set.delete(wake);
      if (set.size === 0 && waiting.get(calendarId) === set) waiting.delete(calendarId);
      resolve(signalled);
    };
    const wake = () => done(true);
    const aborted = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    abort.addEventListener("abort", aborted, { once: true });
    set.add(wake);
  });
}
