import { beforeEach, describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import type { QuotaLimits } from "../../functions/src/domain/quota-limits.js";
import { readConfig } from "../../functions/src/config.js";
import { DEFAULT_QUOTAS } from "../../functions/src/domain/quotas.js";
import { readShards } from "../../functions/src/domain/revision.js";
import type { EventRecord } from "../../functions/src/domain/records.js";
import { appPerTest } from "../helpers/app.js";
import { expectError, post } from "../helpers/http.js";
import { mintAgent, type MintedAgent, newCalendar } from "../helpers/factories.js";

/**
 * Quotas (docs/api.md#quotas), with small limits injected through deps: each create is
 * refused with 403 quota_exceeded once the agent or calendar holds the limit, removing a
 * record gives its place back, and parallel creates never overshoot.
 */
const SMALL: QuotaLimits = {
  calendars_per_agent: 3,
  events_per_calendar: 4,
  credentials_per_agent: 3,
  slugs_per_calendar: 3,
  views_per_calendar: 2,
  exceptions_per_event: 2,
  webhooks_per_agent: 2,
  events_with_alarms_per_calendar: 3,
  retired_slugs_per_agent: 3,
};

const t = appPerTest();
let a: MintedAgent;

beforeEach(async () => {
  t.deps.config = { ...t.deps.config, quotas: { ...SMALL } };
  a = await mintAgent(t, "Alpha");
});

function expectQuota(
  res: { status: number; body: { error?: { details?: unknown } } },
  quota: keyof QuotaLimits,
  limit: number,
) {
  expectError(res as never, 403, "quota_exceeded");
  expect(res.body.error?.details).toEqual({ quota, limit });
}

const addEvent = (calendarId: string, name = "Standup", auth = a.auth) =>
  post(t, `/v1/calendars/${calendarId}/events`, auth).send({ name, date: "2026-12-01" });

/** The events a calendar's shards count (domain/revision.ts). */
const storedEventCount = async (id: string) =>
  (await readShards(t.deps.store, id))?.reduce((sum, s) => sum + s.event_count, 0);

/** A calendar record as stored, counters included (they are internal fields). */
const storedCalendar = async (id: string) => (await t.deps.store.get(paths.calendar(id)))!.data;
const storedAgent = async (id: string) => (await t.deps.store.get(paths.agent(id)))!.data;

describe("calendars per agent", () => {
  it("counts the minted calendar; the fourth calendar is refused and nothing is written", async () => {
    await newCalendar(t, a, { name: "Two" });
    await newCalendar(t, a, { name: "Three" });
    const res = await post(t, "/v1/calendars", a.auth).send({ name: "Four", slug: "four-calendar" });
    expectQuota(res, "calendars_per_agent", 3);
    expect(res.body.error.message).toMatch(/3 calendars/);
    expect(await t.deps.store.get(paths.slug("four-calendar"))).toBeNull();
    expect((await storedAgent(a.agentId)).calendar_count).toBe(3);
    // Another agent has a quota of its own.
    const b = await mintAgent(t, "Beta");
    await newCalendar(t, b, { name: "Beta two" });
  });

  it("10 parallel creates with 1 place left: exactly one succeeds", async () => {
    await newCalendar(t, a, { name: "Two" });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(t, "/v1/calendars", a.auth).send({ name: `Race ${i}` })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of answers.filter((r) => r.status !== 200)) expectQuota(r, "calendars_per_agent", 3);
    const owned = await t.deps.store.query(paths.memberships(a.agentId));
    expect(owned).toHaveLength(3);
  });
});

describe("events per calendar", () => {
  it("refuses the fifth event; deleting one frees a place", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await addEvent(a.calendarId, `E${i}`).expect(200)).body.id);
    const refused = await addEvent(a.calendarId, "E4");
    expectQuota(refused, "events_per_calendar", 4);
    expect(refused.body.error.message).toMatch(/delete events/);
    expect(await t.deps.store.query(paths.events(a.calendarId))).toHaveLength(4);

    await t.http().delete(`/v1/calendars/${a.calendarId}/events/${ids[0]}`).set(a.auth).expect(200);
    expect(await storedEventCount(a.calendarId)).toBe(3);
    await addEvent(a.calendarId, "E4 again").expect(200);
    expectQuota(await addEvent(a.calendarId, "E5"), "events_per_calendar", 4);
  });

  it("an invalid event is invalid_event, not quota_exceeded, on a full calendar", async () => {
    for (let i = 0; i < 4; i++) await addEvent(a.calendarId, `E${i}`).expect(200);
    const res = await post(t, `/v1/calendars/${a.calendarId}/events`, a.auth).send({ name: "Bad", date: "2026-02-30" });
    expectError(res, 400, "invalid_event");
  });

  it("20 parallel creates on an empty calendar store exactly 4 events", async () => {
    // A 503 `unavailable` (conflicting writes; it commits nothing) is retried, as clients are told
    // to: SQLite never answers it, Firestore's emulator does when 20 transactions contend.
    const create = async (name: string) => {
      for (let attempt = 0; ; attempt++) {
        const res = await addEvent(a.calendarId, name);
        if (res.status !== 503 || res.body?.error?.code !== "unavailable" || attempt === 10) return res;
      }
    };
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => create(`P${i}`)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    for (const r of answers.filter((r) => r.status !== 200)) expectQuota(r, "events_per_calendar", 4);
    expect(await t.deps.store.query(paths.events(a.calendarId))).toHaveLength(4);
    expect(await storedEventCount(a.calendarId)).toBe(4);
  });

  it("a calendar written before shards existed is counted once, then by its shards", async () => {
    // Three events written straight to the store, and the shards removed: as before shards.
    await t.deps.store.runTransaction(async (tx) => {
      for (const id of ["evt_old1", "evt_old2", "evt_old3"]) {
        const event = {
          id,
          calendar_id: a.calendarId,
          name: id,
          kind: "one-off",
          date: "2026-12-01",
        } as unknown as EventRecord;
        tx.set(paths.event(a.calendarId, id), { ...event });
      }
      for (let n = 0; n < t.deps.config.revisionShards; n++) tx.delete(paths.shard(a.calendarId, n));
    });
    expect(await storedEventCount(a.calendarId)).toBeUndefined();

    // The first write counts the three, minus the one it deletes, into its shard.
    await t.http().delete(`/v1/calendars/${a.calendarId}/events/evt_old1`).set(a.auth).expect(200);
    expect(await storedEventCount(a.calendarId)).toBe(2);

    await addEvent(a.calendarId, "New 1").expect(200);
    await addEvent(a.calendarId, "New 2").expect(200);
    expect(await storedEventCount(a.calendarId)).toBe(4);
    expectQuota(await addEvent(a.calendarId, "New 3"), "events_per_calendar", 4);
  });
});

describe("credentials per agent", () => {
  it("counts live credentials only: the minted one, two more, then a revoke frees a place", async () => {
    const created: string[] = [];
    for (let i = 0; i < 2; i++)
      created.push(
        (
          await post(t, "/v1/agent-credentials", a.auth)
            .send({ label: `c${i}` })
            .expect(200)
        ).body.credential.id,
      );
    const refused = await post(t, "/v1/agent-credentials", a.auth).send({ label: "one too many" });
    expectQuota(refused, "credentials_per_agent", 3);
    expect(refused.body.error.message).toMatch(/revoke one/);

    await t.http().delete(`/v1/agent-credentials/${created[0]}`).set(a.auth).expect(200);
    expect((await storedAgent(a.agentId)).live_credential_count).toBe(2);
    await post(t, "/v1/agent-credentials", a.auth).send({ label: "replacement" }).expect(200);
    expectQuota(await post(t, "/v1/agent-credentials", a.auth).send({}), "credentials_per_agent", 3);
  });

  it("an agent minted before the counter existed is counted from its live credentials", async () => {
    const { live_credential_count: _dropped, ...agent } = await storedAgent(a.agentId);
    await t.deps.store.runTransaction(async (tx) => tx.set(paths.agent(a.agentId), agent));
    await post(t, "/v1/agent-credentials", a.auth).send({}).expect(200);
    expect((await storedAgent(a.agentId)).live_credential_count).toBe(2);
  });
});

describe("slugs ever held per calendar", () => {
  const rename = (slug: string) => t.http().patch(`/v1/calendars/${a.calendarId}`).set(a.auth).send({ slug });

  it("counts every slug the calendar held; taking an old one back is free", async () => {
    await rename("second-slug").expect(200);
    await rename("third-slug").expect(200);
    const refused = await rename("fourth-slug");
    expectQuota(refused, "slugs_per_calendar", 3);
    expect(await t.deps.store.get(paths.slug("fourth-slug"))).toBeNull();
    expect((await t.http().get(`/v1/calendars/${a.calendarId}`).set(a.auth)).body.slug).toBe("third-slug");

    // Back to an earlier slug: no new slug is reserved, so it is allowed.
    await rename("second-slug").expect(200);
    await rename(a.calendarSlug).expect(200);
    expect((await storedCalendar(a.calendarId)).slug_count).toBe(3);
  });

  it("a rename loop cannot reserve more than the quota (the issue's 1,999 renames)", async () => {
    let refused = 0;
    for (let i = 0; i < 10; i++) if ((await rename(`loop-${i}`)).status === 403) refused++;
    expect(refused).toBe(8);
    expect(await t.deps.store.query(paths.slugs(), { where: [["owner_id", "==", a.calendarId]] })).toHaveLength(3);
  });
});

describe("views per calendar", () => {
  const addView = (name: string) => post(t, `/v1/calendars/${a.calendarId}/views`, a.auth).send({ name });

  it("counts live views; revoking one frees a place", async () => {
    const first = (await addView("One").expect(200)).body.id;
    await addView("Two").expect(200);
    expectQuota(await addView("Three"), "views_per_calendar", 2);
    await t.http().delete(`/v1/calendars/${a.calendarId}/views/${first}`).set(a.auth).expect(200);
    await addView("Three").expect(200);
    expect((await storedCalendar(a.calendarId)).live_view_count).toBe(2);
  });

  it("10 parallel creates on an empty calendar make exactly 2 views", async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => addView(`V${i}`)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(2);
    expect(await t.deps.store.query(paths.views(a.calendarId))).toHaveLength(2);
  });
});

describe("configuration", () => {
  it("defaults to docs/api.md#quotas and reads QUOTA_* variables at start (readConfig)", () => {
    const quotasFromEnv = (env: Record<string, string>) => readConfig(env).quotas;
    expect(quotasFromEnv({})).toEqual(DEFAULT_QUOTAS);
    expect(DEFAULT_QUOTAS).toEqual({
      calendars_per_agent: 100,
      events_per_calendar: 10_000,
      credentials_per_agent: 10,
      slugs_per_calendar: 50,
      retired_slugs_per_agent: 100,
      views_per_calendar: 100,
      exceptions_per_event: 100,
      webhooks_per_agent: 20,
      events_with_alarms_per_calendar: 2_000,
    });
    expect(quotasFromEnv({ QUOTA_EVENTS_PER_CALENDAR: "20000", QUOTA_VIEWS_PER_CALENDAR: " 5 " })).toMatchObject({
      events_per_calendar: 20_000,
      views_per_calendar: 5,
    });
    expect(() => quotasFromEnv({ QUOTA_CALENDARS_PER_AGENT: "0" })).toThrow(/QUOTA_CALENDARS_PER_AGENT/);
    expect(() => quotasFromEnv({ QUOTA_SLUGS_PER_CALENDAR: "lots" })).toThrow(/whole number/);
  });
});
