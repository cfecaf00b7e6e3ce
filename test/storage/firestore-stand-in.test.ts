/**
 * What @firestore-emulator/server (the Firestore stand-in of the tests) does with transactions
 * and preconditions, found by experiment with firebase-admin straight against it: what the
 * alarm queue relies on to record each alarm once there too (docs/decisions/alarms.md,
 * "Exactly once"). It starts the stand-in itself, whatever FIRESTORE_EMULATOR_HOST says.
 */
import { FirestoreServer } from "@firestore-emulator/server";
import { deleteApp, initializeApp, type App } from "firebase-admin/app";
import { getFirestore, type Firestore } from "firebase-admin/firestore";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/ports.js";

const ALREADY_EXISTS = 6;
const NOT_FOUND = 5;

let server: FirestoreServer;
let app: App;
let db: Firestore;

beforeAll(async () => {
  const port = await freePort();
  server = new FirestoreServer();
  await server.start(port);
  process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${port}`;
  const projectId = `demo-almanac-stand-in-${Date.now().toString(36)}`;
  app = initializeApp({ projectId }, projectId);
  db = getFirestore(app);
});
afterAll(async () => {
  await deleteApp(app);
  server.stop();
});

/** A promise and the function that settles it: lets two transactions interleave in a chosen order. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const codeOf = (err: unknown) => (err as { code?: unknown }).code;

describe("@firestore-emulator/server", () => {
  it("does not isolate transactions: two that read a document and write it both commit, once each (a lost update)", async () => {
    const ref = db.doc("things/counter");
    await ref.set({ n: 0 });
    const bothRead = [gate(), gate()];
    let attempts = 0;
    const increment = (i: number) =>
      db.runTransaction(async (tx) => {
        attempts += 1;
        const n = ((await tx.get(ref)).data()?.n as number) ?? 0;
        bothRead[i].open();
        await Promise.all(bothRead.map((g) => g.opened));
        tx.set(ref, { n: n + 1 });
      });
    await Promise.all([increment(0), increment(1)]);
    expect(attempts).toBe(2); // neither was aborted and run again
    expect((await ref.get()).data()).toEqual({ n: 1 });
  });

  it("reads the latest data at every read of a transaction: no snapshot", async () => {
    const ref = db.doc("things/latest");
    await ref.set({ v: "before" });
    const seen = await db.runTransaction(async (tx) => {
      const first = (await tx.get(ref)).data()?.v;
      await db.doc("things/latest").set({ v: "after" });
      const second = (await tx.get(ref)).data()?.v;
      return [first, second];
    });
    expect(seen).toEqual(["before", "after"]);
  });

  it("honours create's precondition: a create of an existing document fails the commit ALREADY_EXISTS, not retried", async () => {
    const ref = db.doc("things/made");
    await ref.set({ by: "first" });
    let attempts = 0;
    const failed = await db
      .runTransaction(async (tx) => {
        attempts += 1;
        tx.create(ref, { by: "second" });
      })
      .catch((err: unknown) => err);
    expect(codeOf(failed)).toBe(ALREADY_EXISTS);
    expect(attempts).toBe(1);
    expect((await ref.get()).data()).toEqual({ by: "first" });
  });

  it("honours update's and delete's exists precondition (NOT_FOUND)", async () => {
    const missing = db.doc("things/missing");
    const update = await db.runTransaction(async (tx) => tx.update(missing, { a: 1 })).catch((err: unknown) => err);
    expect(codeOf(update)).toBe(NOT_FOUND);
    const remove = await db
      .runTransaction(async (tx) => tx.delete(missing, { exists: true }))
      .catch((err: unknown) => err);
    expect(codeOf(remove)).toBe(NOT_FOUND);
  });

  it("ignores a lastUpdateTime precondition: a stale one passes, on update and on delete", async () => {
    const ref = db.doc("things/versioned");
    const { writeTime: stale } = await ref.set({ v: 1 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await ref.set({ v: 2 });
    const now = (await ref.get()).updateTime!;
    expect(now.toMillis()).toBeGreaterThan(stale.toMillis());

    await db.runTransaction(async (tx) => {
      tx.update(ref, { v: 3 }, { lastUpdateTime: stale });
    });
    expect((await ref.get()).data()).toEqual({ v: 3 });
    await db.runTransaction(async (tx) => {
      tx.delete(ref, { lastUpdateTime: stale });
    });
    expect((await ref.get()).exists).toBe(false);
  });

  it("applies a commit's writes in order, keeping those before one that fails: only a failing first write leaves nothing", async () => {
    const taken = db.doc("things/taken");
    await taken.set({ v: 0 });
    const before = db.doc("things/before");
    const after = db.doc("things/after");
    const failedLate = await db
      .runTransaction(async (tx) => {
        tx.set(before, { v: 1 });
        tx.create(taken, { v: 1 });
        tx.set(after, { v: 1 });
      })
      .catch((err: unknown) => err);
    expect(codeOf(failedLate)).toBe(ALREADY_EXISTS);
    expect((await before.get()).exists).toBe(true);
    expect((await after.get()).exists).toBe(false);

    const untouched = db.doc("things/untouched");
    const failedFirst = await db
      .runTransaction(async (tx) => {
        tx.create(taken, { v: 2 });
        tx.set(untouched, { v: 2 });
      })
      .catch((err: unknown) => err);
    expect(codeOf(failedFirst)).toBe(ALREADY_EXISTS);
    expect((await untouched.get()).exists).toBe(false);
    expect((await taken.get()).data()).toEqual({ v: 0 });
  });

  it("applies a commit as one step: a read never sees part of another transaction's writes", async () => {
    const refs = Array.from({ length: 50 }, (_, i) => db.doc(`pairs/p${i}`));
    const writes = Array.from({ length: 20 }, (_, round) =>
      db.runTransaction(async (tx) => {
        for (const ref of refs) tx.set(ref, { round });
      }),
    );
    const reads = Array.from({ length: 40 }, () => db.getAll(...refs));
    const [, snapshots] = await Promise.all([Promise.all(writes), Promise.all(reads)]);
    for (const snaps of snapshots) {
      const rounds = new Set(snaps.map((s) => (s.exists ? (s.data()?.round as number) : -1)));
      expect(rounds.size).toBe(1);
    }
  });
});
