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

const waiting = new Map<string, Set<() => void>>();

export function signalChange(calendarId: string): void {
  setImmediate(() => {
    for (const wake of waiting.get(calendarId) ?? []) wake();
  });
}

/** Resolves true when a change of the calendar is signalled, false after `ms` without one. */
export function nextSignal(calendarId: string, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const set = waiting.get(calendarId) ?? new Set();
    waiting.set(calendarId, set);
    const done = (signalled: boolean) => {
      clearTimeout(timer);
      set.delete(wake);
      if (set.size === 0 && waiting.get(calendarId) === set) waiting.delete(calendarId);
      resolve(signalled);
    };
    const wake = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    set.add(wake);
  });
}
