/**
 * Webhooks lose nothing across a crash: the server (the bundle `npm start` runs, in a child
 * process) is killed with SIGKILL while it delivers, then restarted on the same data. Every
 * change of every acknowledged write reaches the receiver, at least once, and in feed order
 * once deduplicated by `webhook-id` (the change feed is the outbox; docs/decisions/webhooks.md).
 */
import { execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { onFirestore, sqliteOnly } from "../helpers/app.js";
import { freePort } from "../helpers/ports.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";
import { sleep, startServerProcess } from "../helpers/server-process.js";

const ROOT = resolve(import.meta.dirname, "../..");
// Its own bundle: other tests building at the same time cannot hand it half-written files.
const OUT = join(ROOT, "functions/dist-webhook-crash");
const WRITES = 150;

const dataDir = mkdtempSync(join(tmpdir(), "almanac-webhook-crash-"));
let child: ChildProcess | null = null;
let receiver: Receiver;

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, "scripts/bundle.mjs"), OUT]);
  receiver = await startReceiver();
}, 120_000);
afterAll(async () => {
  child?.kill("SIGKILL");
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(OUT, { recursive: true, force: true });
});

const startServer = (port: number): Promise<ChildProcess> =>
  startServerProcess(join(OUT, "server.cjs"), port, {
    DATA_DIR: dataDir,
    RATE_LIMITS: "off",
    WEBHOOKS_ALLOW_LOOPBACK: "on",
    ALMANAC_AUTH_EMULATOR: "off",
  });

async function post(origin: string, path: string, body: unknown, token?: string): Promise<Response> {
  return fetch(`${origin}${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "Idempotency-Key": crypto.randomUUID(),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** The distinct deliveries so far, by webhook-id, with the event each names. */
function delivered(): Map<string, { type: string; event?: string }> {
  const byId = new Map<string, { type: string; event?: string }>();
  for (const r of receiver.received) {
    const body = JSON.parse(r.body) as { type: string; data: { id: string } };
    byId.set(String(r.headers["webhook-id"]), { type: body.type, event: body.data?.id });
  }
  return byId;
}

it.skipIf(onFirestore)(
  sqliteOnly(
    "delivers every change of every acknowledged write after a SIGKILL mid-delivery",
    "the killed server is npm start's, on its SQLite file",
  ),
  async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    child = await startServer(port);
    const minted = (await (await post(origin, "/v1/mint", { name: "Crash" })).json()) as {
      token: string;
      calendar: { id: string };
    };
    const calendarId = minted.calendar.id;
    const hook = await post(origin, "/v1/webhooks", { url: receiver.url, calendars: [calendarId] }, minted.token);
    expect(hook.status).toBe(200);
    const write = async (i: number) => {
      const body = { name: `E${i}`, date: "2027-01-15" };
      const res = await post(origin, `/v1/calendars/${calendarId}/events`, body, minted.token);
      expect(res.status).toBe(200);
      return ((await res.json()) as { id: string }).id;
    };
    const half = WRITES / 2;
    // Half at once, every one acknowledged, to a slow receiver: the kill falls while their
    // deliveries go out, some answered, the one in flight not.
    receiver.answer = () => ({ status: 204, delayMs: 20 });
    const created = await Promise.all(Array.from({ length: half }, (_, i) => write(i)));
    for (let waited = 0; delivered().size < 5 && waited < 10_000; waited += 10) await sleep(10);
    child.kill("SIGKILL");
    await new Promise((done) => child!.once("exit", done));
    const beforeRestart = delivered().size;
    expect(beforeRestart).toBeGreaterThan(0);
    expect(beforeRestart).toBeLessThan(half);
    receiver.answer = () => ({ status: 204 });
    child = await startServer(port);
    for (let i = half; i < WRITES; i++) created.push(await write(i));

    const deadline = Date.now() + 30_000;
    while ([...delivered().values()].filter((d) => d.type === "event.created").length < WRITES) {
      if (Date.now() > deadline) break;
      await sleep(100);
    }
    const createdDelivered = [...delivered().values()].filter((d) => d.type === "event.created").map((d) => d.event);
    expect(new Set(createdDelivered)).toEqual(new Set(created));
    expect(createdDelivered).toHaveLength(WRITES);
    console.log(
      `webhooks across a SIGKILL: ${WRITES} writes; ${beforeRestart} delivered before the kill; ` +
        `${receiver.received.length} deliveries received in all, ${delivered().size} distinct`,
    );
  },
  90_000,
);
