/**
 * The storage contract on the Firestore adapter, against the Cloud Firestore emulator
 * (test/helpers/firestore-emulator.ts: FIRESTORE_EMULATOR_HOST, or one this run starts). Every
 * case runs, the contention cases included: the emulator isolates and serializes transactions.
 * Each case has a project of its own, deleted when it ends.
 */
import { deleteApp, initializeApp } from "firebase-admin/app";
import { getFirestore } from "firebase-admin/firestore";
import { describe, expect, it } from "vitest";
import { LAYOUT, paths } from "../../functions/src/domain/paths.js";
import { FirestoreStore } from "../../functions/src/storage/firestore/index.js";
import { clearProject, firestoreEmulator, uniqueProject } from "../helpers/firestore-emulator.js";
import { runStoreContract, type UncheckedStore } from "./contract.js";

const emulator = await firestoreEmulator();

if (emulator.host) {
  const host = emulator.host;
  runStoreContract(`firestore (${emulator.where})`, async (layout) => {
    const projectId = uniqueProject("contract");
    const app = initializeApp({ projectId }, projectId);
    const db = getFirestore(app);
    db.settings({ ignoreUndefinedProperties: true });
    const store = new FirestoreStore(db, layout);
    // The observer is a second app on the same project: its own client and channel.
    const observerApp = initializeApp({ projectId }, `${projectId}-observer`);
    const observer = new FirestoreStore(getFirestore(observerApp), layout);
    return {
      store,
      observer,
      supportsContention: true,
      cleanup: async () => {
        await store.close();
        await observer.close();
        await deleteApp(app);
        await deleteApp(observerApp);
        await clearProject(host, projectId);
      },
    };
  });
}

describe.skipIf(!emulator.host)(`FirestoreStore on ${emulator.where ?? `[skipped: ${emulator.skipped}]`}`, () => {
  it("shares one store on the default app, and starts afresh after close", async () => {
    const project = uniqueProject("env");
    const first = FirestoreStore.onDefaultApp(LAYOUT, project);
    expect(FirestoreStore.onDefaultApp(LAYOUT, project)).toBe(first);
    // The app's layout: its own paths only.
    const one = paths.calendar("cal_one");
    await (first as UncheckedStore).runTransaction(async (tx) => {
      tx.set(one, { n: 1, dropped: undefined });
    });
    expect(await first.get(one)).toEqual({ id: "cal_one", path: one, data: { n: 1 } });
    await expect(first.get("things/one")).rejects.toThrow(/not in the store's layout/);
    await first.close();

    const second = FirestoreStore.onDefaultApp(LAYOUT, project);
    expect(second).not.toBe(first);
    expect((await second.get(one))?.data).toEqual({ n: 1 });
    await second.close();
    await clearProject(emulator.host!, project);
  });
});
