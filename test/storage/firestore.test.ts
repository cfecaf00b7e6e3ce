/**
 * The storage contract on the Firestore adapter. Against `FIRESTORE_EMULATOR_HOST` when it is set
 * (a real Firestore emulator); otherwise against @firestore-emulator/server, started here.
 */
import { FirestoreServer } from "@firestore-emulator/server";
import { deleteApp, initializeApp } from "firebase-admin/app";
import { getFirestore } from "firebase-admin/firestore";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/ports.js";
import { LAYOUT, paths } from "../../functions/src/domain/paths.js";
import { FirestoreStore } from "../../functions/src/storage/firestore/index.js";
import { runStoreContract, type ContractCase, type UncheckedStore } from "./contract.js";

/** A real Firestore emulator given by the environment (read before this file sets the variable). */
const realEmulator = process.env.FIRESTORE_EMULATOR_HOST;

/** Limits of @firestore-emulator/server (not of the adapter); none of them applies to the real emulator. */
const nodeEmulatorSkips: Partial<Record<ContractCase, string>> = {
  "set-replaces":
    "@firestore-emulator/server merges a set into the stored fields instead of replacing the document (updateFields with an empty mask)",
  "failed-commit-is-atomic":
    "@firestore-emulator/server applies a commit's writes one by one and keeps those before the one that fails",
  "query-null":
    "@firestore-emulator/server ignores unary filters (IS_NULL, which the SDK sends for == null): " +
    "a lone one matches every document, inside an AND it fails the query",
  "query-null-missing-field":
    "@firestore-emulator/server ignores unary filters (IS_NULL, which the SDK sends for == null)",
  "order-missing-field":
    "@firestore-emulator/server keeps documents that lack the orderBy field (sorted last) instead of leaving them out",
  "read-only-snapshot":
    "@firestore-emulator/server reads the latest data at every read of a transaction, read-only ones too (no snapshot)",
};

let server: FirestoreServer | undefined;
let started: Promise<void> | undefined;

/** Starts @firestore-emulator/server once for this file, unless a real emulator is given. */
function ensureEmulator(): Promise<void> {
  return (started ??= (async () => {
    if (realEmulator) return;
    const port = await freePort();
    server = new FirestoreServer();
    await server.start(port);
    // firebase-admin then talks plain gRPC to the emulator, without credentials.
    process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${port}`;
  })());
}
afterAll(() => server?.stop());

const uniqueProject = (label: string) =>
  `demo-almanac-${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const where = realEmulator ? `emulator at ${realEmulator}` : "@firestore-emulator/server";

runStoreContract(`firestore (${where})`, async (layout) => {
  await ensureEmulator();
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
    supportsContention: Boolean(realEmulator),
    skipReason: realEmulator
      ? undefined
      : "@firestore-emulator/server does not isolate transactions; set FIRESTORE_EMULATOR_HOST to a real Firestore emulator",
    skip: realEmulator ? undefined : nodeEmulatorSkips,
    cleanup: async () => {
      await store.close();
      await observer.close();
      await deleteApp(app);
      await deleteApp(observerApp);
    },
  };
});

describe(`FirestoreStore.onDefaultApp (${where})`, () => {
  it("shares one store on the default app, and starts afresh after close", async () => {
    await ensureEmulator();
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
  });
});
