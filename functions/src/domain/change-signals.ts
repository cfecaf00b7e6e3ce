/**
 * Tells this process's change-feed watchers (domain/change-watch.ts) as soon as a write records
 * a change of their calendar. In-process only: a write on another instance is seen when the
 * watcher next reads the store.
 *
 * The signal is sent from inside the writing transaction (recordChange), one event-loop turn
 * later, so it can come before that transaction commits (or for one that then fails): a
 * watcher reads the store and, finding nothing yet, looks again shortly.
 */
// From node:timers, not the globals: fake timers in a test must not hold a waiter back.
import { setImmediate } from "node:timers";
import type { TransactionReads } from "../storage/port.js";

/**
 * What a request that holds its answer needs from the protocol layer, which alone knows the
 * connection and the credentials it came with (http/execute.ts builds it for every operation).
 * A waiting query takes it as a required argument, so no waiting path can leave it out.
 */
export interface WaitGuard {
  /** Aborted when the client has gone before its answer was sent: stop, and read nothing more. */
  signal: AbortSignal;
  /**
   * Authenticates the request's credentials again and re-applies the operation's access policy,
   * reading through `reads` (the same read-only transaction as what is about to be answered);
   * throws the refusal (401, 403, 404) when the caller may no longer have the answer.
   */
  stillAllowed(reads: TransactionReads): Promise<void>;
}

const listeners = new Map<string, Set<() => void>>();

/** Listeners of every calendar's signals (the local driver of webhook delivery, jobs/local-driver.ts). */
const everyCalendar = new Set<(calendarId: string) => void>();

export function signalChange(calendarId: string): void {
  setImmediate(() => {
    for (const listener of [...(listeners.get(calendarId) ?? [])]) listener();
    for (const listener of [...everyCalendar]) listener(calendarId);
  });
}

/** Calls `listener` with the calendar of every signal, until the function returned is called. */
export function onAnyChangeSignal(listener: (calendarId: string) => void): () => void {
  everyCalendar.add(listener);
  return () => everyCalendar.delete(listener);
}

/** Calls `listener` on every signal of the calendar, until the function returned is called. */
export function onChangeSignal(calendarId: string, listener: () => void): () => void {
  const set = listeners.get(calendarId) ?? new Set();
  listeners.set(calendarId, set);
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0 && listeners.get(calendarId) === set) listeners.delete(calendarId);
  };
}
