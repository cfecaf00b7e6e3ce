import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  assertFails,
  initializeTestEnvironment,
  type RulesTestContext,
  type RulesTestEnvironment,
} from "@firebase/rules-unit-testing";
import { afterAll, beforeAll, describe, it } from "vitest";

/** Security rules need the real Firestore emulator (Java); @firestore-emulator/server has no rules engine. */
const host = process.env.FIRESTORE_EMULATOR_HOST;
const title = host
  ? `firestore.rules deny every client access (emulator at ${host})`
  : "firestore.rules [skipped: set FIRESTORE_EMULATOR_HOST to a real Firestore emulator, " +
    "e.g. npm run test:emulators under firebase emulators:exec]";

if (!host) console.warn(`[rules] ${title}`);

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
      projectId: `demo-almanac-rules-${Date.now().toString(36)}`,
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
