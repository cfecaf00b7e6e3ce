import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  assertFails,
  initializeTestEnvironment,
  type RulesTestContext,
  type RulesTestEnvironment,
} from "@firebase/rules-unit-testing";
import { setLogLevel } from "firebase/firestore";
import { afterAll, beforeAll, describe, it } from "vitest";
import { firestoreEmulator, uniqueProject } from "../helpers/firestore-emulator.js";

/** Security rules on the Cloud Firestore emulator (test/helpers/firestore-emulator.ts). */
const emulator = await firestoreEmulator();
const host = emulator.host;
// The client SDK logs every denied write as a warning: denials are what this test expects.
setLogLevel("error");
const title = host
  ? `firestore.rules deny every client access (${emulator.where})`
  : `firestore.rules [skipped: ${emulator.skipped}]`;

const paths = [
  "calendars/x",
  "calendars/x/events/e1",
  "agents/y",
  "agents/y/credentials/z",
  "tokens/abc",
  "slugs/some-slug",
  "anything/else",
];

describe.skipIf(!host)(title, () => {
  let env: RulesTestEnvironment;

  beforeAll(async () => {
    const [hostname, port] = host!.split(":");
    env = await initializeTestEnvironment({
      projectId: uniqueProject("rules"),
      firestore: {
        host: hostname,
        port: Number(port),
        rules: readFileSync(resolve(process.cwd(), "firestore.rules"), "utf8"), // vitest runs from the repo root
      },
    });
    // Data written around the rules, so that reads of existing documents are denied too.
    await env.withSecurityRulesDisabled(async (admin) => {
      for (const path of paths) await admin.firestore().doc(path).set({ seeded: true });
    });
  });

  afterAll(async () => {
    await env?.clearFirestore();
    await env?.cleanup();
  });

  const contexts: Array<[string, () => RulesTestContext]> = [
    ["an unauthenticated client", () => env.unauthenticatedContext()],
    ["a signed-in user", () => env.authenticatedContext("alice")],
    ["a signed-in user with custom claims", () => env.authenticatedContext("agent_y", { agentId: "y", admin: true })],
  ];

  for (const [who, context] of contexts) {
    describe(who, () => {
      for (const path of paths) {
        it(`cannot read, list, create, update or delete ${path}`, async () => {
          const db = context().firestore();
          const ref = db.doc(path);
          await assertFails(ref.get());
          await assertFails(ref.parent.get());
          await assertFails(ref.set({ x: 1 }));
          await assertFails(ref.update({ x: 2 }));
          await assertFails(db.doc(`${path}-new`).set({ x: 1 }));
          await assertFails(ref.delete());
        });
      }

      it("cannot run a collection-group query", async () => {
        await assertFails(context().firestore().collectionGroup("events").get());
      });
    });
  }
});
