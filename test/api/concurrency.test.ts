import { beforeEach, describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import type { AccessRequestRecord } from "../../functions/src/domain/records.js";
import { appPerTest } from "../helpers/app.js";
import { post } from "../helpers/http.js";
import { grantRole, mintAgent, type MintedAgent, newCalendar } from "../helpers/factories.js";
import { liveOwners } from "../helpers/store.js";

/**
 * The invariants that span documents, under concurrent requests on the SQLite store: each is
 * decided by reads inside the transaction that writes (owner grants, layer count, pending marker).
 */
const t = appPerTest();
let a: MintedAgent;
let b: MintedAgent;

beforeEach(async () => {
  a = await mintAgent(t, "Alpha");
  b = await mintAgent(t, "Beta");
});

describe("concurrent sharing writes", () => {
  it("two owners demoting each other at once never leave the calendar ownerless (20 rounds)", async () => {
    for (let round = 0; round < 20; round++) {
      const cal = await newCalendar(t, a, { name: `Round ${round}` });
      await grantRole(t, a.auth, cal.id, b.agentId, "owner");
      const [byA, byB] = await Promise.all([
        post(t, `/v1/calendars/${cal.id}/grants`, a.auth).send({ agent_id: b.agentId, role: "writer" }),
        post(t, `/v1/calendars/${cal.id}/grants`, b.auth).send({ agent_id: a.agentId, role: "writer" }),
      ]);
      const statuses = [byA.status, byB.status].sort();
      expect(statuses, JSON.stringify([byA.body, byB.body])).toEqual([200, 403]);
      // The second to commit is no longer an owner: its role is judged first (docs/api.md#grants-and-access-requests).
      const loser = byA.status === 403 ? byA : byB;
      expect(loser.body.error.code).toBe("forbidden");
      const winner = byA.status === 200 ? a : b;
      expect((await liveOwners(t, cal.id)).map((g) => g.agent_id)).toEqual([winner.agentId]);
    }
  });

  it("20 parallel access requests from one agent leave exactly one pending request", async () => {
    const cal = await newCalendar(t, a, { name: "Popular", visibility: "public" });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(t, `/v1/calendars/${cal.id}/access-requests`, b.auth).send({ message: `try ${i}` }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = new Set(answers.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    const stored = await t.deps.store.query<AccessRequestRecord>(paths.accessRequests(cal.id));
    expect(stored.map((d) => [d.id, d.data.status])).toEqual([[[...ids][0], "pending"]]);
  });

  it("10 parallel attachments onto 19 layers: exactly one succeeds, the rest answer layer_limit", async () => {
    const host = await newCalendar(t, a, { name: "Host" });
    for (let i = 0; i < 19; i++) {
      const cal = await newCalendar(t, a, { name: `Layer ${i}` });
      await post(t, `/v1/calendars/${host.id}/layers`, a.auth)
        .send({ calendar_id: cal.id, key: `l${i}` })
        .expect(200);
    }
    const candidates = await Promise.all(
      Array.from({ length: 10 }, (_, i) => newCalendar(t, a, { name: `Late ${i}` })),
    );
    const answers = await Promise.all(
      candidates.map((cal, i) =>
        post(t, `/v1/calendars/${host.id}/layers`, a.auth).send({ calendar_id: cal.id, key: `late${i}` }),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = answers.filter((r) => r.status !== 200);
    expect(refused.map((r) => r.body.error.code)).toEqual(Array(9).fill("layer_limit"));
    expect(await t.deps.store.query(paths.layers(host.id))).toHaveLength(20);
  });
});
