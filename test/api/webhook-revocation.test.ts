/**
 * A revoked agent's webhooks stop at once (docs/api.md#webhooks, docs/decisions/accounts.md).
 * The attack, over HTTP: a human claims agent X; X holds a grant on another owner's private
 * calendar (or owns a calendar) and a webhook on it to a local receiver; the human revokes X from
 * the account page; the calendar is written to; delivery passes run. Nothing written after the
 * revocation may reach the receiver. Each delivery batch reads the agent's standing (the agent
 * exists and holds a live credential) in the read-only transaction of its page
 * (`readStreamPage`, domain/webhooks/feed.ts), beside its access to the calendar.
 *
 * The human signs in twice over: with the fake sign-in of test/helpers/accounts.ts, and with
 * the Firebase Auth emulator (firebase-tools) when it is installed: an account made on the
 * emulator, its ID token traded at POST /account/session as the browser module does.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readConfig } from "../../functions/src/config.js";
import { paths } from "../../functions/src/domain/paths.js";
import { readStreamPage } from "../../functions/src/domain/webhooks/feed.js";
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from "../../functions/src/domain/webhooks/settings.js";
import { firebaseAccountAuth } from "../../functions/src/http/firebase-accounts.js";
import { startLocalAuthEmulator, type LocalAuthEmulator } from "../../functions/src/local-auth.js";
import { budgetOf } from "../../functions/src/jobs/pass.js";
import { webhookJobFromSettings } from "../../functions/src/jobs/webhooks/build.js";
import {
  createAccountsTestApp,
  fakeAccountAuth,
  Human,
  claimAgent,
  type AccountsTestApp,
  type FakeAccountAuth,
} from "../helpers/accounts.js";
import { loopbackConfig } from "../helpers/config.js";
import { BASE_URL } from "../helpers/app.js";
import { grantRole, laterCredential, mintAgent, newCalendar, newEvent } from "../helpers/factories.js";
import { del, expectError, get, post, type Auth } from "../helpers/http.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

const FIREBASE = resolve(import.meta.dirname, "../../node_modules/.bin/firebase");
const FAST: WebhookSettings = { ...DEFAULT_WEBHOOK_SETTINGS, allowLoopback: true, backoffBaseMs: 1, backoffCapMs: 4 };

let t: AccountsTestApp;
let receiver: Receiver;

/** A few passes of the webhook job, as the local server runs them, each with the deliveries it started. */
async function passes(n = 4): Promise<void> {
  const job = webhookJobFromSettings(FAST);
  for (let i = 0; i < n; i++) {
    await job.run(t.deps, budgetOf(5_000));
    await job.idle();
    await new Promise((done) => setTimeout(done, 10));
  }
}

/** The names of the events the receiver was sent (each once, whatever the retries). */
const receivedNames = (): string[] =>
  [
    ...new Set(
      receiver.received.map((r) => (JSON.parse(r.body) as { data: { event?: { name?: string } } }).data.event?.name),
    ),
  ].filter((name): name is string => typeof name === "string");

async function subscribe(agent: Auth, calendars: string[]): Promise<string> {
  const res = await post(t, "/v1/webhooks", agent).send({ url: receiver.url, calendars });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.webhook.id as string;
}

interface SignIn {
  name: string;
  available: boolean;
  /** Before the file's tests: the AccountAuth the pages use. */
  start: () => Promise<FakeAccountAuth>;
  stop: () => Promise<void>;
  /** Signs `human` in as a new account `who`, as the browser module does. */
  signIn: (human: Human, accounts: FakeAccountAuth, who: string) => Promise<Human>;
}

const fakeSignIn: SignIn = {
  name: "the fake sign-in",
  available: true,
  start: async () => fakeAccountAuth(),
  stop: async () => {},
  signIn: (human, accounts, who) => human.signIn(accounts, who),
};

let emulator: LocalAuthEmulator | null = null;
let emulatorDir: string | null = null;
const emulatorSignIn: SignIn = {
  name: "the Firebase Auth emulator",
  available: existsSync(FIREBASE),
  start: async () => {
    emulatorDir = mkdtempSync(join(tmpdir(), "almanac-revocation-auth-"));
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    emulator = await startLocalAuthEmulator({ dataDir: emulatorDir, log: () => {} });
    expect(emulator).not.toBeNull();
    await emulator!.ready;
    const idToken = () => {
      throw new Error("the emulator's ID tokens come from signIn");
    };
    return { ...firebaseAccountAuth(BASE_URL, readConfig(process.env).firebase), idToken };
  },
  stop: async () => {
    await emulator?.stop();
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    if (emulatorDir) rmSync(emulatorDir, { recursive: true, force: true });
  },
  signIn: async (human, _accounts, who) => {
    // An account on the emulator (its REST API, as the Firebase JS SDK calls it), then its ID token.
    const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
    const res = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        email: `${who}-${Date.now()}@example.com`,
        password: "correct horse battery staple",
        returnSecureToken: true,
      }),
    });
    const body = (await res.json()) as { idToken?: string };
    expect(res.status, JSON.stringify(body)).toBe(200);
    await human.get("/account");
    const session = await human.post("/account/session", { id_token: body.idToken! });
    expect(session.status, session.text).toBe(204);
    expect((await human.get("/account")).text).toContain("Sign out");
    return human;
  },
};

describe.each([fakeSignIn, emulatorSignIn])("a revoked agent's webhooks, signed in with $name", (signIn) => {
  let accounts: FakeAccountAuth;
  beforeAll(async () => {
    if (signIn.available) accounts = await signIn.start();
  }, 180_000);
  afterAll(() => signIn.stop(), 60_000);
  beforeEach(async () => {
    t = createAccountsTestApp(accounts ?? fakeAccountAuth(), loopbackConfig());
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await receiver.close();
    await t.close();
  });

  it.skipIf(!signIn.available)(
    "on another owner's private calendar: nothing written after the revocation is delivered",
    async () => {
      const alice = await signIn.signIn(new Human(t), accounts, "alice");
      const x = await claimAgent(t, alice, "X");
      const owner = await mintAgent(t, "Owner");
      const diary = await newCalendar(t, owner, { name: "Owner's diary", visibility: "private" });
      await grantRole(t, owner, diary.id, x.agentId, "reader");
      const hook = await subscribe(x.auth, [diary.id]);

      await newEvent(t, owner, diary.id, { name: "Before the revocation" });
      await passes();
      expect(receivedNames()).toEqual(["Before the revocation"]);

      expect((await alice.post(`/account/agents/${x.agentId}/revoke`)).status).toBe(303);
      expectError(await get(t, "/v1/me", x.auth), 401, "unauthorized");
      // The grant is untouched: only the agent's standing changed.
      expect((await t.deps.store.get(paths.membership(x.agentId, diary.id)))?.data.role).toBe("reader");

      await newEvent(t, owner, diary.id, { name: "After the revocation" });
      await newEvent(t, owner, diary.id, { name: "Later still" });
      await passes();
      expect(receivedNames()).toEqual(["Before the revocation"]);
      // The stream ended quietly, and the webhook says why (its agent can no longer ask: 401).
      const stored = (await t.deps.store.get(paths.webhook(hook)))?.data;
      expect(stored?.lost_access).toEqual([
        { calendar_id: diary.id, reason: "agent_revoked", since: expect.any(String) },
      ]);
    },
    60_000,
  );

  it.skipIf(!signIn.available)(
    "on its own calendar: nothing written after the revocation is delivered",
    async () => {
      const alice = await signIn.signIn(new Human(t), accounts, "alice");
      const x = await claimAgent(t, alice, "X");
      // X owns its calendar and shares it with a writer, who goes on writing after X is revoked.
      const writer = await mintAgent(t, "Writer");
      await grantRole(t, x.auth, x.calendarId, writer.agentId, "writer");
      await subscribe(x.auth, [x.calendarId]);

      await newEvent(t, writer, x.calendarId, { name: "Before the revocation" });
      await passes();
      expect(receivedNames()).toEqual(["Before the revocation"]);

      expect((await alice.post(`/account/agents/${x.agentId}/revoke`)).status).toBe(303);
      expectError(await get(t, "/v1/me", x.auth), 401, "unauthorized");

      await newEvent(t, writer, x.calendarId, { name: "After the revocation" });
      await passes();
      expect(receivedNames()).toEqual(["Before the revocation"]);
    },
    60_000,
  );
});

describe("the delivery's reading of the agent's standing, and its human's buttons", () => {
  beforeEach(async () => {
    t = createAccountsTestApp(undefined, loopbackConfig());
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await receiver.close();
    await t.close();
  });

  it("an agent that revokes one of its two credentials keeps delivering", async () => {
    const owner = await mintAgent(t, "Owner");
    const second = await laterCredential(t, owner);
    await subscribe(owner.auth, [owner.calendarId]);
    expect((await del(t, `/v1/agent-credentials/${owner.credentialId}`, second)).status).toBe(200);
    expectError(await get(t, "/v1/me", owner.auth), 401, "unauthorized");
    await newEvent(t, second, owner.calendarId, { name: "Still delivered" });
    await passes();
    expect(receivedNames()).toEqual(["Still delivered"]);
  });

  it("disabled from the account page it sends nothing; enabled, what came meanwhile arrives; deleted, nothing", async () => {
    const alice = await new Human(t).signIn(t.accounts, "alice");
    const x = await claimAgent(t, alice, "X");
    const hook = await subscribe(x.auth, [x.calendarId]);
    const account = (verb: string) => alice.post(`/account/agents/${x.agentId}/webhooks/${hook}/${verb}`);
    await alice.get("/account");

    expect((await account("disable")).status).toBe(303);
    await newEvent(t, x.auth, x.calendarId, { name: "While disabled" });
    await passes();
    expect(receivedNames()).toEqual([]);

    expect((await account("enable")).status).toBe(303);
    await passes();
    expect(receivedNames()).toEqual(["While disabled"]);

    expect((await account("delete")).status).toBe(303);
    await newEvent(t, x.auth, x.calendarId, { name: "After the delete" });
    await passes();
    expect(receivedNames()).toEqual(["While disabled"]);
  });

  it("says why a page is refused: agent_revoked (revoked, or no agent record), no_access (no grant)", async () => {
    const human = await new Human(t).signIn(t.accounts, "alice");
    const x = await claimAgent(t, human, "X");
    const owner = await mintAgent(t, "Owner");
    const diary = await newCalendar(t, owner, { name: "Owner's diary", visibility: "private" });
    const grant = await grantRole(t, owner, diary.id, x.agentId, "reader");
    const page = (agentId: string, calendarId: string) =>
      t.deps.store.runReadOnly((reads) =>
        readStreamPage(reads, agentId, calendarId, [], { limit: 100, now: t.clock(), shards: 8 }),
      );

    expect(await page(x.agentId, diary.id)).toMatchObject({ allowed: true });
    expect((await page(x.agentId, diary.id)).denied).toBeUndefined();
    expect((await del(t, `/v1/calendars/${diary.id}/grants/${grant.id}`, owner.auth)).status).toBe(200);
    expect(await page(x.agentId, diary.id)).toMatchObject({ allowed: false, denied: "no_access", changes: [] });
    expect(await page(x.agentId, x.calendarId)).toMatchObject({ allowed: true });

    expect((await human.post(`/account/agents/${x.agentId}/revoke`)).status).toBe(303);
    // Its own calendar, where it is still the owner.
    expect(await page(x.agentId, x.calendarId)).toMatchObject({ allowed: false, denied: "agent_revoked", changes: [] });

    await t.deps.store.runTransaction(async (tx) => tx.delete(paths.agent(owner.agentId)));
    expect(await page(owner.agentId, diary.id)).toMatchObject({ allowed: false, denied: "agent_revoked" });
  });
});
