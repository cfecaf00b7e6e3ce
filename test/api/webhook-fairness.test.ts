/**
 * Webhook delivery is fair per tenant: a slow receiver holds only its own places, so another
 * tenant's delivery is not queued behind it. Real time (standardwebhooks-style timestamps and
 * a receiver that answers after 9 s), driven by the local driver as `npm start` runs it.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from "../../functions/src/domain/webhooks/settings.js";
import { startJob, type RunningJob } from "../../functions/src/jobs/local-driver.js";
import { webhookJobFromSettings } from "../../functions/src/jobs/webhooks/build.js";
import { DEFAULT_DELIVERY_LIMITS } from "../../functions/src/jobs/webhooks/limits.js";
import { appPerTest, createTestApp } from "../helpers/app.js";
import { loopbackConfig } from "../helpers/config.js";
import { mintAgent, newCalendar, newEvent, type MintedAgent } from "../helpers/factories.js";
import { post } from "../helpers/http.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

const realClock = Object.assign(() => new Date(), { advance: () => {}, set: () => {} });
const t = appPerTest(() => createTestApp({ clock: realClock, config: loopbackConfig() }));

const SETTINGS: WebhookSettings = { ...DEFAULT_WEBHOOK_SETTINGS, allowLoopback: true };
const SLOW_MS = 9_000;

let slow: Receiver;
let fast: Receiver;
let running: RunningJob | undefined;
beforeEach(async () => {
  slow = await startReceiver();
  slow.answer = () => ({ status: 200, delayMs: SLOW_MS });
  fast = await startReceiver();
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
  await Promise.all([slow.close(), fast.close()]);
});

async function subscribe(agent: MintedAgent, calendars: string[], url: string) {
  const res = await post(t, "/v1/webhooks", agent.auth).send({ url, calendars });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Resolves with the ms from now until the receiver has `count` requests (fails past `withinMs`). */
async function arrival(receiver: Receiver, count: number, withinMs: number): Promise<number> {
  const started = performance.now();
  while (receiver.received.length < count) {
    if (performance.now() - started > withinMs) throw new Error(`no delivery within ${withinMs} ms`);
    await new Promise((done) => setTimeout(done, 10));
  }
  return Math.round(performance.now() - started);
}

describe("a slow receiver delays only its own streams", () => {
  it("another tenant's 12 changes queued on a receiver that answers after 9 s: a delivery elsewhere arrives within 5 s", async () => {
    const mallory = await mintAgent(t, "Mallory");
    const victor = await mintAgent(t, "Victor");
    await subscribe(mallory, [mallory.calendarId], slow.url);
    await subscribe(victor, [victor.calendarId], fast.url);
    for (let i = 0; i < 12; i++) await newEvent(t, mallory, mallory.calendarId, { name: `M${i}` });
    running = startJob(webhookJobFromSettings(SETTINGS), t.deps);
    await arrival(slow, 1, 5_000);

    await newEvent(t, victor, victor.calendarId, { name: "Victor's" });
    const ms = await arrival(fast, 1, 5_000);
    console.log(`webhook fairness: Victor's delivery arrived ${ms} ms after his write, Mallory's receiver holding`);
    expect(ms).toBeLessThan(5_000);
    expect(slow.received.length).toBeLessThanOrEqual(1);
  }, 30_000);

  it("many streams to one slow receiver take at most its places, not every place of the instance", async () => {
    const mallory = await mintAgent(t, "Mallory");
    const victor = await mintAgent(t, "Victor");
    const calendars = [mallory.calendarId];
    for (let i = 0; i < 9; i++) calendars.push((await newCalendar(t, mallory, { name: `M${i}` })).id);
    await subscribe(mallory, calendars, slow.url);
    await subscribe(victor, [victor.calendarId], fast.url);
    for (const calendar of calendars) await newEvent(t, mallory, calendar, { name: "Slow" });
    const limits = { ...DEFAULT_DELIVERY_LIMITS, atOnce: 4 };
    running = startJob(webhookJobFromSettings(SETTINGS, { limits }), t.deps);
    await arrival(slow, limits.perReceiver, 5_000);

    await newEvent(t, victor, victor.calendarId, { name: "Victor's" });
    expect(await arrival(fast, 1, 5_000)).toBeLessThan(5_000);
    // Ten streams wait on the slow receiver, but only its two places were taken.
    expect(slow.received).toHaveLength(limits.perReceiver);
  }, 30_000);
});
