/**
 * Contention on Firestore: firebase-admin runs a transaction's function again after ABORTED (5
 * attempts, with backoff); once it gives up, the adapter answers ContentionError, which the API
 * answers `503 unavailable` with `Retry-After` (test/api/create-race.test.ts). Here the
 * transaction is made to give up, as firebase-admin does after its last attempt.
 */
import type { Firestore } from "firebase-admin/firestore";
import { describe, expect, it } from "vitest";
import { LAYOUT } from "../../functions/src/domain/paths.js";
import { FirestoreStore } from "../../functions/src/storage/firestore/index.js";
import { ContentionError } from "../../functions/src/storage/port.js";

/** A Firestore whose transactions run their function `runs` times, then fail with `code`, as the SDK's retries end. */
function givingUp(code: number, runs: number): { db: Firestore; attempts: () => number } {
  let attempts = 0;
  const db = {
    runTransaction: async (fn: (t: unknown) => Promise<unknown>) => {
      const t = { get: () => Promise.resolve({ exists: false }), set() {}, create() {}, update() {}, delete() {} };
      for (let i = 0; i < runs; i++) {
        attempts += 1;
        await fn(t);
      }
      throw Object.assign(new Error(`${code} ABORTED: Too much contention on these documents.`), { code });
    },
  };
  return { db: db as unknown as Firestore, attempts: () => attempts };
}

describe("a Firestore transaction that gives up after its retries", () => {
  it("is a ContentionError, after the function ran once per attempt", async () => {
    const { db, attempts } = givingUp(10, 5);
    const store = new FirestoreStore(db, LAYOUT);
    await expect(store.runTransaction(async () => "never committed")).rejects.toBeInstanceOf(ContentionError);
    expect(attempts()).toBe(5);
  });

  it("passes any other failure on as it came", async () => {
    const { db } = givingUp(14, 1);
    const store = new FirestoreStore(db, LAYOUT);
    await expect(store.runTransaction(async () => 1)).rejects.toMatchObject({ code: 14 });
  });
});
