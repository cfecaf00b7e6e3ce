import { createServer } from "node:net";
import { FirestoreServer } from "@firestore-emulator/server";
import { deleteApp, initializeApp } from "firebase-admin/app";
import { getFirestore } from "firebase-admin/firestore";
import { FirestoreStore } from "../../functions/src/storage/firestore/index.js";
import { runStoreContract, type ContractCase } from "./contract.js";

/** A real Firestore emulator given by the environment; read before this file sets the variable. */
const realEmulator = process.env.FIRESTORE_EMULATOR_HOST;

/** Limits of @firestore-emulator/server (not of the adapter); they do not apply to a real emulator. */
const nodeEmulatorSkips: Partial<Record<ContractCase, string>> = {
  "set-replaces":
    "@firestore-emulator/server merges a set into the stored fields instead of replacing the document (updateFields with an empty mask)",
  "failed-commit-is-atomic":
    "@firestore-emulator/server applies a commit's writes one by one and keeps those before the one that fails",
  "query-null":
    "@firestore-emulator/server ignores unary filters (IS_NULL, which the SDK sends for == null): a lone one matches every document, inside an AND it fails the query",
  "query-null-missing-field": "@firestore-emulator/server ignores unary filters (IS_NULL, which the SDK sends for == null)",
  "order-missing-field":
    "@firestore-emulator/server keeps documents that lack the orderBy field (sorted last) instead of leaving them out",
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

runStoreContract(realEmulator ? `firestore (emulator at ${realEmulator})` : "firestore (@firestore-emulator/server)", async () => {
  let server: FirestoreServer | undefined;
  if (!realEmulator) {
    const port = await freePort();
    server = new FirestoreServer();
    await server.start(port);
    // firebase-admin then talks plain gRPC to the emulator, without credentials.
    process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${port}`;
  }
  const projectId = `demo-almanac-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const app = initializeApp({ projectId }, projectId);
  const db = getFirestore(app);
  db.settings({ ignoreUndefinedProperties: true });
  const store = new FirestoreStore(db);
  return {
    store,
    supportsContention: Boolean(realEmulator),
    skipReason: realEmulator
      ? undefined
      : "@firestore-emulator/server does not isolate transactions; set FIRESTORE_EMULATOR_HOST to a real Firestore emulator",
    skip: realEmulator ? undefined : nodeEmulatorSkips,
    cleanup: async () => {
      await store.close();
      await deleteApp(app);
      server?.stop();
    },
  };
});
