/**
 * Lets the event loop run other requests between the steps of a long read. A store read on
 * SQLite is synchronous under its promise, so without this a read of twenty calendars holds
 * the process from its first query to its answer. From node:timers, not the global: fake
 * timers in a test must not hold a read back.
 */
import { setImmediate } from "node:timers/promises";

export const yieldToOthers = (): Promise<void> => setImmediate();

/** Runs the steps one after another, letting other requests run between them. */
export async function eachInTurn<T>(steps: ReadonlyArray<() => Promise<T>>): Promise<T[]> {
  const results: T[] = [];
  for (const step of steps) {
    results.push(await step());
    await yieldToOthers();
  }
  return results;
}
