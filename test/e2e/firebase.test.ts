/**
 * End to end through the Firebase emulators: `npm run build`, then
 * `firebase emulators:exec --only functions,hosting,auth --project <a demo- project>` with the
 * deployed artifact (functions/package.json `main`: the bundle scripts/bundle.mjs writes to
 * functions/dist, what `firebase deploy` uploads; `api` and `pages`) on the Firestore adapter,
 * against the Cloud Firestore emulator (test/helpers/firestore-emulator.ts; FIRESTORE_EMULATOR_HOST
 * is passed down to the functions). Every request goes through the Hosting port, so
 * firebase.json's rewrites are what is tested. The scheduled functions, which the emulator does
 * not fire, are run from the same bundle in a process of their own (test/e2e/run-scheduled.mjs)
 * on the same store: an alarm reaches a webhook receiver here, signed. See docs/e2e.md.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import ical, { type VEvent } from "node-ical";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { clearProject, firestoreEmulator, uniqueProject } from "../helpers/firestore-emulator.js";
import { freePort } from "../helpers/ports.js";
import { scheduledFunctionsPath } from "../helpers/pubsub-emulator.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";
import { listToolsWith, MemoryOAuthClient } from "../helpers/oauth.js";

const ROOT = join(import.meta.dirname, "../..");
const FIREBASE = join(ROOT, "node_modules/.bin/firebase");
const HAS_FIREBASE = existsSync(FIREBASE);
const emulator = await firestoreEmulator();
/** The emulators started here; the Auth emulator signs a person in on the claim and account pages. */
const ONLY = "functions,hosting,auth";
/** A project of this run's own (the CLI takes ids of at most 30 characters), cleared at the end. */
const PROJECT = uniqueProject("e2e");
const STEP = { timeout: 120_000 };
/** The Hosting emulator's origin, on a port picked when the test starts. */
let HOSTING = "";
/** The Auth emulator's origin. */
let AUTH = "";
/** The Firestore the functions use: host:port. */
const FIRESTORE_HOST = emulator.host ?? "";
/** firebase.json with free ports, beside it in the repository (the CLI takes paths relative to its config file). */
let configFile: string | undefined;

let emulators: ChildProcess | undefined;
let exited: Promise<number | null> | undefined;
let signalDir: string;
let output = "";
let receiver: Receiver | undefined;

const run = promisify(execFile);
const MINUTE = 60_000;

/** Distinct ports free right now. */
async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/**
 * A copy of firebase.json whose emulators (and those that start with them: hub, logging,
 * eventarc, tasks) listen on free ports, so that the test runs beside other servers and runs.
 */
async function writeEmulatorConfig(): Promise<string> {
  const config = JSON.parse(readFileSync(join(ROOT, "firebase.json"), "utf8"));
  const [hosting, functions, hub, logging, eventarc, tasks, auth] = await freePorts(7);
  config.emulators = {
    ...config.emulators,
    hosting: { host: "127.0.0.1", port: hosting },
    functions: { host: "127.0.0.1", port: functions },
    hub: { host: "127.0.0.1", port: hub },
    logging: { host: "127.0.0.1", port: logging },
    eventarc: { host: "127.0.0.1", port: eventarc },
    tasks: { host: "127.0.0.1", port: tasks },
    auth: { host: "127.0.0.1", port: auth },
    ui: { enabled: false },
  };
  HOSTING = `http://127.0.0.1:${hosting}`;
  AUTH = `http://127.0.0.1:${auth}`;
  const file = join(ROOT, `firebase.e2e-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

const tail = () => output.split("\n").slice(-40).join("\n");

/** Resolves once the hold script reports the emulators ready; rejects if the CLI exits first. */
async function waitForReady(limitMs: number): Promise<void> {
  const started = Date.now();
  // Widened: TypeScript does not see the callback below assign it, and would narrow it to "running".
  let code = "running" as number | null | "running";
  void exited!.then((c) => (code = c));
  while (!existsSync(join(signalDir, "ready"))) {
    if (code !== "running")
      throw new Error(`firebase emulators:exec exited (${code}) before the emulators were ready:\n${tail()}`);
    if (Date.now() - started > limitMs) throw new Error(`the emulators were not ready after ${limitMs} ms:\n${tail()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  if (!HAS_FIREBASE || !emulator.host) return;
  configFile = await writeEmulatorConfig();
  await run("npm", ["run", "build"], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });

  receiver = await startReceiver();
  // The functions emulator passes its environment on to the functions it runs: the Firestore
  // emulator's address among it. Loopback receivers are allowed: the test's webhook receiver
  // listens on 127.0.0.1.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FIRESTORE_EMULATOR_HOST: FIRESTORE_HOST,
    PUBLIC_BASE_URL: HOSTING,
    NO_UPDATE_NOTIFIER: "1",
    WEBHOOKS_ALLOW_LOOPBACK: "on",
  };

  signalDir = mkdtempSync(join(tmpdir(), "almanac-e2e-"));
  const script = `node test/e2e/hold-emulators.mjs ${signalDir} 600000`;
  const args = ["emulators:exec", "--config", configFile, "--only", ONLY, "--project", PROJECT, script];
  emulators = spawn(FIREBASE, args, {
    cwd: ROOT,
    env,
    detached: true, // its own process group, so that a stuck run can be stopped with its children
    stdio: ["ignore", "pipe", "pipe"],
  });
  emulators.stdout!.on("data", (chunk) => (output += chunk));
  emulators.stderr!.on("data", (chunk) => (output += chunk));
  const child = emulators;
  exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  await waitForReady(180_000);
}, 300_000);

afterAll(async () => {
  if (emulators && emulators.exitCode === null) {
    writeFileSync(join(signalDir, "done"), "");
    const stopped = await Promise.race([
      exited!.then(() => true),
      new Promise((r) => setTimeout(() => r(false), 60_000)),
    ]);
    if (!stopped && emulators.pid) process.kill(-emulators.pid, "SIGTERM");
  }
  if (emulator.host) await clearProject(emulator.host, PROJECT);
  await receiver?.close();
  if (signalDir) rmSync(signalDir, { recursive: true, force: true });
  if (configFile) rmSync(configFile, { force: true });
}, 90_000);

const http = (path: string, init: RequestInit = {}) => fetch(`${HOSTING}${path}`, { redirect: "manual", ...init });

let idempotency = 0;
function postJson(path: string, body: unknown, token?: string, method = "POST") {
  return http(path, {
    method,
    headers: {
      "Content-Type": "application/json",
      ...(method === "POST" ? { "Idempotency-Key": `e2e-${Date.now()}-${++idempotency}` } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function json<T = Record<string, any>>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text.slice(0, 500)).toBe(status);
  return JSON.parse(text) as T;
}

describe.skipIf(!HAS_FIREBASE || !emulator.host)(
  !HAS_FIREBASE
    ? "Firebase emulators: skipped, firebase-tools is not installed (node_modules/.bin/firebase)"
    : emulator.host
      ? `Firebase emulators (${ONLY}) on ${emulator.where}, through Hosting`
      : `Firebase emulators: skipped, ${emulator.skipped}`,
  () => {
    let token: string;
    let calendarId: string;
    let slug: string;
    let standupId: string;
    /** The alarm that the webhook step waits for, and the webhook it goes to. */
    let alarm: { at: number; calendarId: string; eventId: string; webhookId: string; secret: string };
    /** The agent the claim step's person claimed; the OAuth step acts as it. */
    let claimed: { agentId: string; token: string; calendarId: string };

    // The person's browser, a cookie jar of one: Hosting passes `__session`, and only it, to the function.
    let cookie = "";
    let csrf = "";
    const browse = async (path: string, init: RequestInit = {}) => {
      const res = await http(path, { ...init, headers: { ...init.headers, ...(cookie ? { Cookie: cookie } : {}) } });
      const set = res.headers.getSetCookie().find((c) => c.startsWith("__session="));
      if (set) cookie = set.split(";")[0];
      const text = await res.text();
      csrf = /(?:data-csrf|name="csrf" value)="([0-9a-f]{64})"/.exec(text)?.[1] ?? csrf;
      return { status: res.status, text, headers: res.headers };
    };
    const form = (fields: Record<string, string> | URLSearchParams): RequestInit => {
      const body = new URLSearchParams(fields);
      body.set("csrf", csrf);
      return { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body };
    };

    it("loads the functions from the bundle that `firebase deploy` uploads", STEP, () => {
      const main = (JSON.parse(readFileSync(join(ROOT, "functions/package.json"), "utf8")) as { main: string }).main;
      expect(main).toBe("dist/index.mjs");
      expect(existsSync(join(ROOT, "functions", main))).toBe(true);
      // The emulator read the function list out of that file.
      expect(output).toMatch(/functions\[[^\]]*api[^\]]*\]: http function initialized/);
    });

    it("serves the landing page and the agents' docs as static files", STEP, async () => {
      const home = await http("/");
      expect(home.status).toBe(200);
      expect(home.headers.get("content-type")).toMatch(/^text\/html/);
      const page = await home.text();
      for (const link of ['href="/llms.txt"', 'href="/openapi.json"', "/v1/mint"]) expect(page).toContain(link);
      const llms = await http("/llms.txt");
      expect(llms.status).toBe(200);
      expect(llms.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    });

    it("mints an agent and reads /v1/me through the api function on Firestore", STEP, async () => {
      const minted = await json(
        await postJson("/v1/mint", { name: "E2E agent", calendar: { name: "E2E Launch", timezone: "Europe/Berlin" } }),
      );
      token = minted.token;
      calendarId = minted.calendar.id;
      slug = minted.calendar.slug;
      expect(token).toMatch(/^svc_agent_/);
      expect(minted.calendar.url).toBe(`${HOSTING}/c/${slug}`);
      const me = await json(await http("/v1/me", { headers: { Authorization: `Bearer ${token}` } }));
      expect(me.agent.id).toBe(minted.agent.id);
      expect(me.grants.map((g: { calendar_id: string }) => g.calendar_id)).toContain(calendarId);
    });

    it("subscribes a webhook to alarms, then writes an event whose alarm falls a few seconds ahead", STEP, async () => {
      const calendar = await json(await postJson("/v1/calendars", { name: "E2E alarms", timezone: "UTC" }, token));
      const hook = await json(
        await postJson("/v1/webhooks", { url: receiver!.url, calendars: [calendar.id], types: ["alarm"] }, token),
      );
      expect(hook.secret).toMatch(/^whsec_/);
      // Alarm instants are whole minutes: the first at least 10 s ahead, a minute before the start.
      const at = Math.ceil((Date.now() + 10_000) / MINUTE) * MINUTE;
      const start = new Date(at + MINUTE).toISOString();
      const event = await json(
        await postJson(
          `/v1/calendars/${calendar.id}/events`,
          { name: "E2E alarm", date: start.slice(0, 10), start_time: start.slice(11, 16), alarms: [1] },
          token,
        ),
      );
      alarm = { at, calendarId: calendar.id, eventId: event.id, webhookId: hook.webhook.id, secret: hook.secret };
    });

    it("answers API errors with the JSON envelope where the app sees the request", STEP, async () => {
      const notFound = await http("/v1/no-such-route");
      // Hosting's CDN would keep a function's 404 for 10 minutes without it (docs/api.md#caching-and-cors).
      expect(notFound.headers.get("cache-control")).toBe("no-store");
      const missing = await json(notFound, 404);
      expect(missing.error.code).toBe("not_found");
      const unauthorized = await json(await http("/v1/me"), 401);
      expect(unauthorized.error.code).toBe("unauthorized");
      // The framework parses bodies before the app runs; the app still holds them to 64 KiB.
      const large = await json(await postJson("/v1/mint", { name: "x".repeat(70 * 1024) }), 413);
      expect(large.error.code).toBe("payload_too_large");
      const text = await json(
        await http("/v1/mint", {
          method: "POST",
          headers: { "Content-Type": "text/plain", "Idempotency-Key": "e2e-text" },
          body: "hi",
        }),
        415,
      );
      expect(text.error.code).toBe("unsupported_media_type");
      // Invalid JSON never reaches the app: the functions framework rejects it with its own
      // 400 (GoogleCloudPlatform/functions-framework-nodejs#686). The status still matches.
      const invalid = await postJson("/v1/mint", '{"name":');
      expect(invalid.status).toBe(400);
    });

    it("creates a recurring event and shows it on /c/{slug} through the pages function", STEP, async () => {
      const standup = await json(
        await postJson(
          `/v1/calendars/${calendarId}/events`,
          {
            name: "E2E standup",
            recur: { type: "weekly", day: 1, starts: "2026-11-23" },
            start_time: "09:30",
            end_time: "09:45",
          },
          token,
        ),
      );
      standupId = standup.id;
      expect(standup.kind).toBe("recurring");
      await json(await postJson(`/v1/calendars/${calendarId}/events`, { name: "E2E someday" }, token));

      const page = await http(`/c/${slug}?view=month&date=2027-01-04`);
      const html = await page.text();
      expect(page.status, html.slice(0, 300)).toBe(200);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(page.headers.get("x-robots-tag")).toBe("noindex");
      expect(html).toContain("E2E Launch");
      expect(html).toContain("E2E standup");
      // Revalidated on every use, and unchanged it costs a 304 through Hosting.
      expect(page.headers.get("cache-control")).toBe("no-cache");
      const again = await http(`/c/${slug}?view=month&date=2027-01-04`, {
        headers: { "If-None-Match": page.headers.get("etag")! },
      });
      expect(again.status).toBe(304);
    });

    it("answers free/busy and free slots through the api function", STEP, async () => {
      const auth = { headers: { Authorization: `Bearer ${token}` } };
      const range = `calendars=${calendarId}&from=2027-01-04&to=2027-01-04`;
      const busy = await json(await http(`/v1/freebusy?${range}`, auth));
      const standup = { start: "2027-01-04T09:30:00+01:00", end: "2027-01-04T09:45:00+01:00" };
      expect(busy).toEqual({ calendars: { [calendarId]: { busy: [standup] } }, busy: [standup] });
      const free = await json(await http(`/v1/freebusy/slots?${range}&minutes=30`, auth));
      expect(free.slots).toEqual([
        { start: "2027-01-04T09:00:00+01:00", end: "2027-01-04T09:30:00+01:00" },
        { start: "2027-01-04T09:45:00+01:00", end: "2027-01-04T17:00:00+01:00" },
      ]);
    });

    it("serves MCP at /mcp through the api function: tools/list, and tools/call equal to REST", STEP, async () => {
      const headers = {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      };
      const rpc = async (id: number, method: string, params?: unknown) =>
        (
          await json(
            await http("/mcp", {
              method: "POST",
              headers,
              body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
            }),
          )
        ).result;
      const listed = await rpc(1, "tools/list");
      expect(listed.tools.map((tool: { name: string }) => tool.name)).toEqual(
        expect.arrayContaining(["create_event", "list_occurrences", "find_free_time"]),
      );
      const range = { from: "2027-01-04", to: "2027-01-10" };
      const called = await rpc(2, "tools/call", { name: "list_occurrences", arguments: { calendarId, ...range } });
      expect(called.isError).toBeUndefined();
      const rest = await json(
        await http(`/v1/calendars/${calendarId}/occurrences?from=${range.from}&to=${range.to}`, {
          headers: { Authorization: `Bearer ${token}` },
        }),
      );
      expect(JSON.parse(called.content[0].text)).toEqual(rest);
      expect(rest.occurrences.length).toBeGreaterThan(0);
    });

    it("serves the calendar feed with the series as an RRULE, and 304 for its ETag", STEP, async () => {
      const res = await http(`/c/${slug}.ics`);
      const text = await res.text();
      expect(res.status, text.slice(0, 300)).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(text).toContain("DTSTART;TZID=Europe/Berlin:20261123T093000");
      expect(text).toContain("RRULE:FREQ=WEEKLY;BYDAY=MO;WKST=MO");
      expect(text).not.toContain("E2E someday");

      const series = Object.values(ical.sync.parseICS(text)).find(
        (c): c is VEvent => c?.type === "VEVENT" && c.summary === "E2E standup",
      );
      const occurrences = await json(
        await http(`/v1/calendars/${calendarId}/occurrences?from=2027-01-01&to=2027-04-30`),
      );
      const expected = occurrences.occurrences
        .filter((o: { event_id: string }) => o.event_id === standupId)
        .map((o: { start: string }) => new Date(o.start).toISOString());
      expect(expected.length).toBeGreaterThan(15);
      const parsed = series!
        .rrule!.between(new Date("2027-01-01T00:00:00Z"), new Date("2027-05-01T00:00:00Z"), true)
        .map((d) => d.toISOString());
      expect(parsed).toEqual(expected);

      const etag = res.headers.get("etag")!;
      expect(etag).toMatch(/^"/);
      const again = await http(`/c/${slug}.ics`, { headers: { "If-None-Match": etag } });
      expect(again.status).toBe(304);
    });

    it("serves a share view's feed under its own name", STEP, async () => {
      const view = await json(await postJson(`/v1/calendars/${calendarId}/views`, { name: "E2E public view" }, token));
      const res = await http(`/v/${view.slug}.ics`);
      const text = await res.text();
      expect(res.status, text.slice(0, 300)).toBe(200);
      expect(text).toContain("X-WR-CALNAME:E2E public view");
      expect(text).toContain("SUMMARY:E2E standup");
      expect(text).not.toContain("E2E Launch");
      expect(text).not.toContain(`/c/${slug}`);
    });

    it("answers 308 from the old slug to the new one after a rename, page and feed", STEP, async () => {
      const renamed = await json(
        await postJson(`/v1/calendars/${calendarId}`, { slug: `${slug}-renamed` }, token, "PATCH"),
      );
      expect(renamed.slug).toBe(`${slug}-renamed`);

      const moved = await http(`/c/${slug}?view=week`);
      expect(moved.status).toBe(308);
      expect(moved.headers.get("location")).toBe(`/c/${slug}-renamed?view=week`);
      const followed = await http(moved.headers.get("location")!);
      expect(followed.status).toBe(200);
      expect(await followed.text()).toContain("E2E Launch");

      const feed = await http(`/c/${slug}.ics`);
      expect(feed.status).toBe(308);
      expect(feed.headers.get("location")).toBe(`/c/${slug}-renamed.ics`);
      expect((await http(feed.headers.get("location")!)).status).toBe(200);
    });

    it("claims an agent through the /claim and /account rewrites, signed in on the Auth emulator", STEP, async () => {
      const minted = await json(await postJson("/v1/mint", { name: "E2E claimer" }));
      const claimPath = new URL(minted.claim_url as string).pathname;
      expect(minted.claim_url).toBe(`${HOSTING}${claimPath}`);
      claimed = { agentId: minted.agent.id, token: minted.token, calendarId: minted.calendar.id };

      const page = await browse(claimPath);
      expect(page.status, page.text.slice(0, 300)).toBe(200);
      expect(page.text).toContain("<h1>E2E claimer</h1>");
      // private: Hosting passes a Set-Cookie only then.
      expect(page.headers.get("cache-control")).toBe("private, no-store");
      expect(page.headers.get("content-security-policy")).toContain(`connect-src 'self' ${AUTH}`);
      expect((await browse("/account")).status).toBe(200);

      // Signed in as the browser module does it, by an email link, over the emulator's REST API.
      const email = "e2e@example.com";
      const identity = (op: string, body: object) =>
        fetch(`${AUTH}/identitytoolkit.googleapis.com/v1/accounts:${op}?key=fake-api-key`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
      await identity("sendOobCode", {
        requestType: "EMAIL_SIGNIN",
        email,
        continueUrl: `${HOSTING}${claimPath}`,
        canHandleCodeInApp: true,
      });
      const codes = (await (await fetch(`${AUTH}/emulator/v1/projects/${PROJECT}/oobCodes`)).json()) as {
        oobCodes: Array<{ email: string; oobCode: string }>;
      };
      const oobCode = codes.oobCodes.filter((c) => c.email === email).pop()!.oobCode;
      const { idToken } = (await (await identity("signInWithEmailLink", { email, oobCode })).json()) as {
        idToken: string;
      };
      const session = await browse("/account/session", form({ id_token: idToken }));
      expect(session.status, session.text).toBe(204);

      const signedIn = await browse(claimPath);
      expect(signedIn.text).toContain(email);
      const confirm = await browse(claimPath, form({}));
      expect(confirm.status, confirm.text.slice(0, 300)).toBe(303);
      const account = await browse(confirm.headers.get("location")!);
      expect(account.text).toContain("E2E claimer is linked to your account.");
      expect((await browse(claimPath)).status).toBe(410);
      const me = await json(await http("/v1/me", { headers: { Authorization: `Bearer ${minted.token}` } }));
      expect(me.agent.claimed).toBe(true);
    });

    it(
      "connects the MCP SDK's client by OAuth through Hosting: consent signed in, an event, revoked, 401",
      STEP,
      async () => {
        const mcp = new URL(`${HOSTING}/mcp`);
        const oauthClient = new MemoryOAuthClient();
        const first = new Client({ name: "hosted", version: "1.0.0" });
        const connecting = first.connect(new StreamableHTTPClientTransport(mcp, { authProvider: oauthClient }));
        await expect(connecting).rejects.toThrow(UnauthorizedError);
        const authorizationUrl = oauthClient.authorizationUrl!;
        expect(authorizationUrl.origin).toBe(HOSTING);

        const authorize = await http(authorizationUrl.pathname + authorizationUrl.search);
        expect(authorize.status, await authorize.text()).toBe(302);
        const consentPath = new URL(authorize.headers.get("location")!).pathname;
        const page = await browse(consentPath);
        expect(page.status, page.text.slice(0, 300)).toBe(200);
        expect(page.text).toContain("Connect Test Connector");
        expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
        const choice = new URLSearchParams([
          ["decision", "allow"],
          ["agent", claimed.agentId],
          ["scope", "agent:read"],
          ["scope", "calendar:read"],
          ["scope", "calendar:write"],
          ["calendar", claimed.calendarId],
        ]);
        const allowed = await browse(consentPath, form(choice));
        expect(allowed.status, allowed.text.slice(0, 300)).toBe(303);
        const back = new URL(allowed.headers.get("location")!);
        await new StreamableHTTPClientTransport(mcp, { authProvider: oauthClient }).finishAuth(
          back.searchParams.get("code")!,
        );

        const client = new Client({ name: "hosted", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(mcp, { authProvider: oauthClient }));
        const created = (await client.callTool({
          name: "create_event",
          arguments: { calendarId: claimed.calendarId, name: "Hosted client's event", date: "2027-02-01" },
        })) as { isError?: boolean; content: Array<{ text: string }> };
        expect(created.isError, created.content[0]?.text).toBeFalsy();
        const eventId = (JSON.parse(created.content[0].text) as { id: string }).id;
        await client.close();
        const agentsOwn = { headers: { Authorization: `Bearer ${claimed.token}` } };
        expect((await http(`/v1/calendars/${claimed.calendarId}/events/${eventId}`, agentsOwn)).status).toBe(200);

        const account = await browse("/account");
        expect(account.text).toContain("Test Connector");
        const revokePath = new RegExp(
          `action="(/account/agents/${claimed.agentId}/apps/cred_[A-Za-z0-9]+/revoke)"`,
        ).exec(account.text)![1];
        expect((await browse(revokePath, form({}))).status).toBe(303);
        const after = await listToolsWith(`${HOSTING}/mcp`, oauthClient.saved!.access_token);
        expect(after.status).toBe(401);
        expect(after.headers.get("www-authenticate")).toContain(
          `resource_metadata="${HOSTING}/.well-known/oauth-protected-resource/mcp"`,
        );
      },
    );

    it("follows the change feed through the api function: a waiting read is answered by a write", STEP, async () => {
      const auth = { headers: { Authorization: `Bearer ${token}` } };
      const start = await json(await http(`/v1/calendars/${calendarId}/changes`, auth));
      expect(start.changes).toEqual([]);
      const waiting = http(`/v1/calendars/${calendarId}/changes?cursor=${start.cursor}&wait=20`, auth);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const made = await json(await postJson(`/v1/calendars/${calendarId}/events`, { name: "E2E change" }, token));
      const woken = await json(await waiting);
      expect(woken.changes.map((c: { type: string; id: string }) => [c.type, c.id])).toEqual([
        ["event.created", made.id],
      ]);
    });

    it("delivers the alarm to the webhook, signed, when the bundle's scheduled functions run", STEP, async () => {
      const wait = alarm.at + 1_000 - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      // In a process of its own, as the functions run, and not blocking this one: the store and
      // the receiver live here.
      const { stdout } = await run(process.execPath, ["test/e2e/run-scheduled.mjs", "alarms", "webhooks"], {
        cwd: ROOT,
        env: {
          ...process.env,
          FIRESTORE_EMULATOR_HOST: FIRESTORE_HOST,
          GCLOUD_PROJECT: PROJECT,
          WEBHOOKS_ALLOW_LOOPBACK: "on",
        },
      });
      console.log(`${scheduledFunctionsPath()}\n${stdout.trim()}`);
      expect(stdout).toContain("alarms: 1 fired");
      expect(stdout).toContain("webhooks: 1 delivered");

      expect(receiver!.received).toHaveLength(1);
      const [delivery] = receiver!.received;
      const headers = delivery.headers as Record<string, string>;
      const verified = new Webhook(alarm.secret).verify(delivery.body, headers);
      expect(verified).toMatchObject({
        type: "alarm",
        calendar_id: alarm.calendarId,
        data: {
          type: "alarm",
          event_id: alarm.eventId,
          minutes_before: 1,
          name: "E2E alarm",
          due_at: new Date(alarm.at).toISOString(),
        },
      });
      expect(headers["webhook-id"]).toMatch(new RegExp(`^${alarm.webhookId}_${alarm.calendarId}_\\d+_\\d+$`));
      const log = await json(
        await http(`/v1/webhooks/${alarm.webhookId}/deliveries`, { headers: { Authorization: `Bearer ${token}` } }),
      );
      expect(log.deliveries).toEqual([
        expect.objectContaining({ change_id: headers["webhook-id"], type: "alarm", status: 204, attempt: 1 }),
      ]);
    });

    it("deletes a calendar through the api function, and the scheduled purges remove the rest", STEP, async () => {
      const auth = { Authorization: `Bearer ${token}` };
      const doomed = await json(await postJson("/v1/calendars", { name: "E2E doomed", visibility: "public" }, token));
      await json(await postJson(`/v1/calendars/${doomed.id}/events`, { name: "E2E doomed event" }, token));
      expect((await http(`/c/${doomed.slug}`)).status).toBe(200);
      const deleted = await json(await http(`/v1/calendars/${doomed.id}`, { method: "DELETE", headers: auth }));
      expect(deleted).toEqual({ deleted: doomed.id });
      expect((await http(`/c/${doomed.slug}`)).status).toBe(404);
      expect((await http(`/v1/calendars/${doomed.id}/events`, { headers: auth })).status).toBe(404);
      const { stdout } = await run(process.execPath, ["test/e2e/run-scheduled.mjs", "purges"], {
        cwd: ROOT,
        env: { ...process.env, FIRESTORE_EMULATOR_HOST: FIRESTORE_HOST, GCLOUD_PROJECT: PROJECT },
      });
      expect(stdout).toContain("purges: 1 deleted calendars purged");
    });

    it("serves /openapi.json through the api function", STEP, async () => {
      const doc = await json(await http("/openapi.json"));
      expect(doc.openapi).toMatch(/^3\.1/);
      expect(doc.info.version).toBe("0.5.0");
    });

    it("shuts the emulators down cleanly", STEP, async () => {
      writeFileSync(join(signalDir, "done"), "");
      const code = await exited!;
      expect(code, tail()).toBe(0);
      // The scheduled functions are listed; the emulator does not run them (the webhook step runs
      // them from the bundle, test/e2e/scheduled-pubsub.test.ts shows why).
      const listed = /Loaded functions definitions from source: ([^.\n]*)/.exec(output)?.[1].split(", ");
      expect(listed?.sort()).toEqual(["alarms", "api", "feeds", "pages", "purges", "webhooks"]);
    });
  },
);
