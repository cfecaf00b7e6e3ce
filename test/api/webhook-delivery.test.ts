/**
 * Webhook delivery (issue 24, docs/decisions/webhooks.md): to a receiver on a loopback port
 * (WEBHOOKS_ALLOW_LOOPBACK=on), passes driven by the test. Every change arrives at least once,
 * exactly once per `webhook-id`, in feed order per calendar, signed so that `standardwebhooks`
 * verifies it; failures retry and show in deliveries; a revoked grant stops delivery.
 */
import type { LookupFunction } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from "../../functions/src/domain/webhooks/settings.js";
import { startJob } from "../../functions/src/jobs/local-driver.js";
import { budgetOf, type PassResult } from "../../functions/src/jobs/pass.js";
import { webhookJobFromSettings } from "../../functions/src/jobs/webhooks/build.js";
import { createSender } from "../../functions/src/outbound/send.js";
import { appPerTest, createTestApp, testClock } from "../helpers/app.js";
import { loopbackConfig } from "../helpers/config.js";
import { grantRole, mintAgent, newCalendar, newEvent, type MintedAgent } from "../helpers/factories.js";
import { del, get, patch, post } from "../helpers/http.js";
import { startReceiver, type Receiver, type Received } from "../helpers/receiver.js";

/** The real time (standardwebhooks checks timestamps against it), shifted by `offset` ms. */
let offset = 0;
const shiftedClock = () =>
  Object.assign(() => new Date(Date.now() + offset), {
    advance: (ms: number) => {
      offset += ms;
    },
    set: () => {},
  }) as unknown as ReturnType<typeof testClock>;
const t = appPerTest(() => createTestApp({ clock: shiftedClock(), config: loopbackConfig() }));
const HOUR = 3_600_000;

let receiver: Receiver;
beforeEach(async () => {
  offset = 0;
  receiver = await startReceiver();
});
afterEach(async () => {
  await receiver.close();
});

const FAST: WebhookSettings = { ...DEFAULT_WEBHOOK_SETTINGS, allowLoopback: true, backoffBaseMs: 1, backoffCapMs: 4 };

async function subscribe(agent: MintedAgent, calendars: string[], url = receiver.url, types?: string[]) {
  const res = await post(t, "/v1/webhooks", agent.auth).send({ url, calendars, ...(types ? { types } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { webhook: { id: string }; secret: string };
}

/** One pass of a fresh job, and the deliveries it started, to their end. */
async function pass(settings: WebhookSettings = FAST, lookup?: LookupFunction): Promise<PassResult> {
  const job = webhookJobFromSettings(settings, { lookup });
  const result = await job.run(t.deps, budgetOf(5_000));
  await job.idle();
  return result;
}

/** Nothing written waits to be fanned out, and no stream waits to deliver or retry. */
const settled = async () =>
  (await t.deps.store.query(paths.webhookOutbox())).length === 0 &&
  (await t.deps.store.query(paths.deliveryQueue())).length === 0;

/** Passes until nothing is due or waiting for a retry. */
async function drain(settings: WebhookSettings = FAST): Promise<void> {
  for (let i = 0; i < 500; i++) {
    await pass(settings);
    if (await settled()) return;
    await new Promise((done) => setTimeout(done, 5));
  }
  throw new Error("deliveries did not settle");
}

interface Delivery {
  id: string;
  type: string;
  calendar_id: string;
  data: { seq: number; id: string; type: string };
  at: string;
}
const parse = (r: Received): Delivery => ({ id: String(r.headers["webhook-id"]), ...JSON.parse(r.body) });

describe("delivery", () => {
  it("1,000 writes from 4 writers to 3 calendars, 2 webhooks: each change once per webhook-id, in feed order, signed", async () => {
    const owner = await mintAgent(t, "Owner");
    const writers = [owner];
    for (const name of ["W1", "W2", "W3"]) writers.push(await mintAgent(t, name));
    const calendars = [owner.calendarId];
    for (const name of ["Two", "Three"]) calendars.push((await newCalendar(t, owner, { name })).id);
    for (const w of writers.slice(1)) for (const c of calendars) await grantRole(t, owner, c, w.agentId, "writer");
    const all = await subscribe(owner, calendars);
    const some = await subscribe(writers[1], calendars.slice(1));
    const secrets = new Map([
      [all.webhook.id, all.secret],
      [some.webhook.id, some.secret],
    ]);

    // Deliveries run alongside the writes, as on the local server: a pass every 20 ms and on every signal.
    const runner = startJob(webhookJobFromSettings(FAST), t.deps);
    const perCalendar = new Map<string, number>(calendars.map((c) => [c, 0]));
    let next = 0;
    await Promise.all(
      writers.map(async (w) => {
        const mine: Array<[string, string]> = [];
        while (next < 1000) {
          const n = next++;
          const cal = calendars[n % 3];
          perCalendar.set(cal, (perCalendar.get(cal) ?? 0) + 1);
          if (n % 4 === 3 && mine.length > 0) {
            const [c, id] = mine.pop()!;
            perCalendar.set(cal, (perCalendar.get(cal) ?? 0) - 1);
            perCalendar.set(c, (perCalendar.get(c) ?? 0) + 1);
            await patch(t, `/v1/calendars/${c}/events/${id}`, w.auth)
              .send({ name: `Renamed ${n}` })
              .expect(200);
          } else {
            mine.push([cal, (await newEvent(t, w, cal, { name: `E${n}` })).id]);
          }
        }
      }),
    );
    await runner.stop();
    await drain();

    const unique = new Map<string, Delivery>();
    for (const r of receiver.received) {
      const hookId = String(r.headers["webhook-id"]).split("_cal_")[0];
      // Throws unless a signature verifies with the secret and the timestamp is recent.
      new Webhook(secrets.get(hookId)!).verify(r.body, r.headers as Record<string, string>);
      unique.set(String(r.headers["webhook-id"]), parse(r));
    }
    // In order per webhook and calendar: the feed's seq rises by one, each shard's numbers rise.
    const order = new Map<string, Delivery[]>();
    const firstSeen = new Set<string>();
    for (const r of receiver.received) {
      const d = parse(r);
      if (firstSeen.has(d.id)) continue;
      firstSeen.add(d.id);
      const key = `${d.id.split("_cal_")[0]} ${d.calendar_id}`;
      order.set(key, [...(order.get(key) ?? []), d]);
    }
    expect([...order.keys()].sort()).toEqual(
      [
        ...calendars.map((c) => `${all.webhook.id} ${c}`),
        ...calendars.slice(1).map((c) => `${some.webhook.id} ${c}`),
      ].sort(),
    );
    for (const [key, list] of order) {
      const calendar = key.split(" ")[1];
      expect(list.length, key).toBe(perCalendar.get(calendar));
      expect(
        list.map((d) => d.data.seq),
        key,
      ).toEqual(list.map((_, i) => list[0].data.seq + i));
      const lastOnShard = new Map<string, number>();
      for (const d of list) {
        const [shard, seq] = d.id.split("_").slice(-2).map(Number);
        expect(seq, key).toBeGreaterThan(lastOnShard.get(String(shard)) ?? 0);
        lastOnShard.set(String(shard), seq);
      }
    }
    expect(unique.size).toBe(1000 + perCalendar.get(calendars[1])! + perCalendar.get(calendars[2])!);
    const duplicates = receiver.received.length - unique.size;
    console.log(`webhooks: ${receiver.received.length} deliveries, ${unique.size} distinct, ${duplicates} repeated`);
  }, 120_000);

  it("retries a receiver answering 500 with backoff until it recovers; the attempts show in deliveries", async () => {
    const owner = await mintAgent(t, "Owner");
    const hook = await subscribe(owner, [owner.calendarId]);
    let failing = 5;
    receiver.answer = () => (failing-- > 0 ? { status: 500 } : { status: 200 });
    for (let i = 0; i < 10; i++) await newEvent(t, owner, owner.calendarId, { name: `E${i}` });
    await drain();
    const firstTimes = new Map<string, Delivery>();
    for (const r of receiver.received.slice(5)) firstTimes.set(parse(r).id, parse(r));
    expect([...firstTimes.values()].map((d) => d.data.id)).toHaveLength(10);
    expect(receiver.received).toHaveLength(15);
    const res = await get(t, `/v1/webhooks/${hook.webhook.id}/deliveries`, owner.auth).expect(200);
    const deliveries = res.body.deliveries as Array<{ status: number; attempt: number; error: string | null }>;
    expect(deliveries).toHaveLength(15);
    expect(deliveries.filter((d) => d.status === 500).map((d) => d.attempt)).toEqual([5, 4, 3, 2, 1]);
    expect(deliveries.find((d) => d.status === 500)?.error).toBe("receiver answered 500");
    expect(deliveries.filter((d) => d.status === 200)).toHaveLength(10);
    expect(deliveries[0]).toMatchObject({ status: 200, attempt: 1, calendar_id: owner.calendarId });
  });

  it("disables a webhook after its failures pass the limit, and enabling resumes where it stopped", async () => {
    const owner = await mintAgent(t, "Owner");
    const hook = await subscribe(owner, [owner.calendarId]);
    receiver.answer = () => ({ status: 503 });
    await newEvent(t, owner, owner.calendarId, { name: "Lost?" });
    const settings = { ...FAST, disableAfterFailures: 3 };
    for (let i = 0; i < 20; i++) {
      await pass(settings);
      await new Promise((done) => setTimeout(done, 5));
    }
    const shown = await get(t, `/v1/webhooks/${hook.webhook.id}`, owner.auth).expect(200);
    expect(shown.body.enabled).toBe(false);
    expect(shown.body.disabled_reason).toMatch(/3 consecutive deliveries/);
    expect(receiver.received).toHaveLength(3);
    receiver.answer = () => ({ status: 200 });
    await patch(t, `/v1/webhooks/${hook.webhook.id}`, owner.auth).send({ enabled: true }).expect(200);
    await drain(settings);
    expect(receiver.received.map((r) => parse(r).data.type)).toEqual(Array(4).fill("event.created"));
  });

  it("stops delivering a calendar whose grant was revoked, quietly: noted on the webhook, never failing", async () => {
    const owner = await mintAgent(t, "Owner");
    const reader = await mintAgent(t, "Reader");
    const cal = (await newCalendar(t, owner, { name: "Private", visibility: "private" })).id;
    const grant = await grantRole(t, owner, cal, reader.agentId, "reader");
    const hook = await subscribe(reader, [cal]);
    await newEvent(t, owner, cal, { name: "Seen" });
    await drain();
    expect(receiver.received.map((r) => parse(r).data.type)).toEqual(["event.created"]);
    await del(t, `/v1/calendars/${cal}/grants/${grant.id}`, owner.auth).expect(200);
    await newEvent(t, owner, cal, { name: "Not for the reader" });
    await drain();
    expect(receiver.received).toHaveLength(1);
    const shown = await get(t, `/v1/webhooks/${hook.webhook.id}`, reader.auth).expect(200);
    expect(shown.body).toMatchObject({ enabled: true, lost_access: [{ calendar_id: cal, reason: "no_access" }] });
    const stream = await t.deps.store.get(paths.webhookStream(hook.webhook.id, cal));
    expect(stream?.data).toMatchObject({ failures: 0, failing_since: null });
  });

  it("filters by types, and the cursor passes what it leaves out", async () => {
    const owner = await mintAgent(t, "Owner");
    await subscribe(owner, [owner.calendarId], receiver.url, ["event.deleted"]);
    const a = await newEvent(t, owner, owner.calendarId, { name: "A" });
    await patch(t, `/v1/calendars/${owner.calendarId}/events/${a.id}`, owner.auth).send({ name: "B" }).expect(200);
    await del(t, `/v1/calendars/${owner.calendarId}/events/${a.id}`, owner.auth).expect(200);
    await drain();
    expect(receiver.received.map((r) => parse(r).type)).toEqual(["event.deleted"]);
    await pass();
    expect(await settled()).toBe(true);
  });

  it("after a rotation both secrets verify for 24 hours, then only the new one signs", async () => {
    const owner = await mintAgent(t, "Owner");
    const hook = await subscribe(owner, [owner.calendarId]);
    const rotated = await post(t, `/v1/webhooks/${hook.webhook.id}/rotate-secret`, owner.auth).expect(200);
    await newEvent(t, owner, owner.calendarId, { name: "Both" });
    await drain();
    const [first] = receiver.received;
    expect(String(first.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of [hook.secret, rotated.body.secret as string])
      new Webhook(secret).verify(first.body, first.headers as Record<string, string>);

    t.clock.advance(24 * HOUR + 1000);
    await newEvent(t, owner, owner.calendarId, { name: "New only" });
    await drain();
    const second = receiver.received[1];
    const signatures = String(second.headers["webhook-signature"]).split(" ");
    const id = String(second.headers["webhook-id"]);
    const at = new Date(Number(second.headers["webhook-timestamp"]) * 1000);
    expect(signatures).toEqual([new Webhook(rotated.body.secret as string).sign(id, at, second.body)]);
  });

  it("POST .../test sends a signed ping now and keeps its attempt", async () => {
    const owner = await mintAgent(t, "Owner");
    const hook = await subscribe(owner, [owner.calendarId]);
    const res = await post(t, `/v1/webhooks/${hook.webhook.id}/test`, owner.auth).expect(200);
    expect(res.body).toMatchObject({
      delivered: true,
      attempt: { type: "ping", status: 204, attempt: 1, error: null },
    });
    const [ping] = receiver.received;
    new Webhook(hook.secret).verify(ping.body, ping.headers as Record<string, string>);
    expect(JSON.parse(ping.body)).toMatchObject({
      type: "ping",
      calendar_id: null,
      data: { webhook_id: hook.webhook.id },
    });
    const list = await get(t, `/v1/webhooks/${hook.webhook.id}/deliveries`, owner.auth).expect(200);
    expect(list.body.deliveries).toEqual([res.body.attempt]);
  });
});

describe("refused at connect time", () => {
  it("a name resolving to 127.0.0.1 is refused when loopback is not allowed, and is a failed attempt", async () => {
    const port = new URL(receiver.url).port;
    // localhost resolves to a loopback address: refused after DNS.
    const direct = await createSender({ allowLoopback: false })(`http://localhost:${port}/hooks`, {}, "{}", {
      timeoutMs: 2000,
    });
    expect(direct).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/^refused/) });
    expect(receiver.received).toHaveLength(0);

    const owner = await mintAgent(t, "Owner");
    const hook = await subscribe(owner, [owner.calendarId], `https://hooks.example.test:${port}/hooks`);
    const toLoopback: LookupFunction = (_host, options, callback) => {
      const cb = callback as (...args: unknown[]) => void;
      if ((options as { all?: boolean }).all) cb(null, [{ address: "127.0.0.1", family: 4 }]);
      else cb(null, "127.0.0.1", 4);
    };
    await newEvent(t, owner, owner.calendarId, { name: "Rebound" });
    await pass({ ...FAST, allowLoopback: false }, toLoopback);
    expect(receiver.received).toHaveLength(0);
    const res = await get(t, `/v1/webhooks/${hook.webhook.id}/deliveries`, owner.auth).expect(200);
    expect(res.body.deliveries[0]).toMatchObject({
      status: null,
      attempt: 1,
      error: expect.stringMatching(/^refused/),
    });
  });

  it("never follows a redirect (to a private address or anywhere): a 3xx is a failed attempt", async () => {
    const owner = await mintAgent(t, "Owner");
    const hook = await subscribe(owner, [owner.calendarId]);
    receiver.answer = () => ({ status: 302, headers: { Location: "http://10.0.0.1/internal" } });
    await newEvent(t, owner, owner.calendarId, { name: "Redirected" });
    await pass();
    expect(receiver.received).toHaveLength(1);
    const res = await get(t, `/v1/webhooks/${hook.webhook.id}/deliveries`, owner.auth).expect(200);
    expect(res.body.deliveries[0]).toMatchObject({
      status: 302,
      error: expect.stringMatching(/^redirect \(302\) not followed/),
    });
  });
});
