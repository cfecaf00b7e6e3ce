import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../functions/src/domain/ids.js";
import { paths } from "../../functions/src/domain/paths.js";
import { DEFAULT_QUOTAS } from "../../functions/src/domain/quotas.js";
import type { AccessRequestRecord, AgentRecord } from "../../functions/src/domain/records.js";
import type { Role, Scope, Visibility } from "../../functions/src/domain/types.js";
import type { AnyRoute } from "../../functions/src/http/route.js";
import { apiRoutes } from "../../functions/src/routes/index.js";
import { createAccountsTestApp, Human, type AccountsTestApp } from "../helpers/accounts.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { loopbackConfig } from "../helpers/config.js";
import { freshKey, patch, post } from "../helpers/http.js";
import {
  grantRole,
  laterCredential,
  mintAgent,
  newCalendar,
  sharingWorld,
  type Calendar,
  type MintedAgent,
} from "../helpers/factories.js";

/**
 * Every route of the API, for a private, an unlisted and a public calendar, as each kind of
 * caller, against the statuses docs/api.md#access implies:
 *   401 for anonymous on a token-required route; 404 for a private calendar without a live
 *   grant; 403 insufficient_scope for a token without the scope; 403 forbidden for too low a
 *   role; 404 for an id under the wrong parent; else success. A credential of the owner
 *   restricted to another of its calendars meets every calendar here as one that does not exist.
 * The rows are keyed by the route, and the test fails for a route without a row, so a new
 * route cannot be left out.
 */

type Auth = { Authorization: string };
type Caller =
  | "owner"
  | "writer"
  | "reader"
  | "pending"
  | "stranger"
  | "anonymous"
  | "owner-without-grants-scope"
  | "owner-restricted-elsewhere";
/** The owner's credential with every scope, restricted to the `elsewhere` calendar alone. */
const RESTRICTED = "owner-restricted-elsewhere";
const CALLERS: Caller[] = [
  "owner",
  "writer",
  "reader",
  "pending",
  "stranger",
  "anonymous",
  "owner-without-grants-scope",
  RESTRICTED,
];
const VISIBILITIES: Visibility[] = ["private", "unlisted", "public"];
const ROLE_OF: Record<Caller, Role | null> = {
  owner: "owner",
  writer: "writer",
  reader: "reader",
  pending: null,
  stranger: null,
  anonymous: null,
  "owner-without-grants-scope": "owner",
  [RESTRICTED]: "owner",
};

/**
 * Who may call a route (docs/api.md#access, minimum roles):
 * - open: no token needed (mint);
 * - agent: any valid token (identity routes, creating a calendar);
 * - read: token optional, a live grant on a private calendar;
 * - request: token required, a calendar the caller can see (access requests);
 * - writer / owner: token required and that role or higher.
 */
type Access = "open" | "agent" | "read" | "request" | "writer" | "owner";

interface Cell {
  params?: Record<string, string>;
  query?: string;
  body?: object;
}

interface Fixture {
  id: string;
  name: string;
  visibility: Visibility;
  eventId: string;
  viewId: string;
  layerId: string;
  grantId: string;
  requestId: string;
}

interface World {
  t: TestApp;
  agents: Record<"owner" | "writer" | "reader" | "pending" | "stranger", MintedAgent>;
  auth: Record<Caller, Auth | undefined>;
  calendars: Record<Visibility, Fixture>;
  /** Another calendar of the same owner, whose children are addressed through the fixtures. */
  elsewhere: Fixture;
}

interface Row {
  access: Access;
  /** The scope the route needs beyond what every caller's token carries; only grants:manage differs here. */
  scope?: Scope;
  /** Builds one request; `cal` is absent for routes outside a calendar. Fresh children for routes that consume them. */
  cell: (w: World, cal: Fixture | undefined, caller: Caller) => Promise<Cell>;
  /** For routes with a child id: the same request with a child of another calendar. */
  wrongParent?: (w: World, cal: Fixture) => Cell;
  /** A documented answer other than success for a caller who passes the policy. */
  instead?: (caller: Caller) => [number, string] | undefined;
  /** For a route outside a calendar: the restricted credential's answer, when not success. */
  outsideReach?: [number, string];
}

/** A webhook of the stranger's, for the rows' wrong-parent cases (set by its first cell). */
let strangersWebhook = "whk_notyetmade";

/**
 * The caller's own new webhook on the public calendar (anyone may read it); a refused port: a
 * test ping fails at once. The restricted credential's agent's, made by its unrestricted token.
 */
async function freshWebhook(w: World, caller: Caller): Promise<string> {
  const auth = w.auth[caller === RESTRICTED ? "owner" : caller];
  if (!auth) return "whk_whatever";
  const body = { url: "http://127.0.0.1:9/hook", calendars: [w.calendars.public.id] };
  const id = (await ok(post(w.t, "/v1/webhooks", auth).send(body))).body.webhook.id as string;
  if (caller === "stranger") strangersWebhook = id;
  return id;
}

let counter = 0;
const unique = (prefix: string) => `${prefix}${++counter}`;

async function seedAgent(w: World): Promise<AgentRecord> {
  const agent: AgentRecord = {
    id: newId("agt"),
    name: unique("Dummy "),
    created_at: w.t.clock().toISOString(),
    owner_user_id: null,
  };
  await w.t.deps.store.runTransaction(async (tx) => tx.create(paths.agent(agent.id), { ...agent }));
  return agent;
}

/** A pending access request, written as the command would (the request and its pending marker). */
async function seedRequest(w: World, calendarId: string, agent: Pick<AgentRecord, "id" | "name">): Promise<string> {
  const record: AccessRequestRecord = {
    id: newId("areq"),
    calendar_id: calendarId,
    agent_id: agent.id,
    agent_name: agent.name,
    role: "reader",
    message: null,
    status: "pending",
    created_at: w.t.clock().toISOString(),
    resolved_at: null,
    resolved_by: null,
  };
  await w.t.deps.store.runTransaction(async (tx) => {
    tx.create(paths.accessRequest(calendarId, record.id), { ...record });
    tx.set(paths.pendingRequest(calendarId, agent.id), { request_id: record.id });
  });
  return record.id;
}

async function ok(res: Promise<request.Response> | request.Test): Promise<request.Response> {
  const r = await res;
  if (r.status !== 200) throw new Error(`setup failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

const owner = (w: World) => w.agents.owner.auth;
const freshEvent = async (w: World, calId: string) =>
  (await ok(post(w.t, `/v1/calendars/${calId}/events`, owner(w)).send({ name: unique("Event ") }))).body.id as string;
/** A daily series, and optionally one of its occurrences already cancelled (for the routes that restore one). */
const freshSeries = async (w: World, calId: string, cancelled?: string) => {
  const id = (
    await ok(
      post(w.t, `/v1/calendars/${calId}/events`, owner(w)).send({
        name: unique("Series "),
        recur: { type: "daily", starts: "2026-11-01" },
      }),
    )
  ).body.id as string;
  if (cancelled) {
    await ok(
      patch(w.t, `/v1/calendars/${calId}/events/${id}/occurrences/${cancelled}`, owner(w)).send({ cancelled: true }),
    );
  }
  return id;
};
const freshView = async (w: World, calId: string) =>
  (await ok(post(w.t, `/v1/calendars/${calId}/views`, owner(w)).send({ name: unique("View ") }))).body.id as string;
const freshLayer = async (w: World, calId: string) => {
  const target = await newCalendar(w.t, w.agents.owner, { name: unique("Layer ") });
  return (
    await ok(post(w.t, `/v1/calendars/${calId}/layers`, owner(w)).send({ calendar_id: target.id, key: unique("k") }))
  ).body.id as string;
};
const freshGrant = async (w: World, calId: string) =>
  (await grantRole(w.t, owner(w), calId, (await seedAgent(w)).id, "reader")).id;
const freshRequest = async (w: World, calId: string) => seedRequest(w, calId, await seedAgent(w));

/** A calendar of `visibility` with the fixtures' writer, reader and pending request around it. */
async function freshCalendar(w: World, visibility: Visibility): Promise<string> {
  const { id } = await newCalendar(w.t, w.agents.owner, { name: unique("Doomed "), visibility });
  await grantRole(w.t, owner(w), id, w.agents.writer.agentId, "writer");
  await grantRole(w.t, owner(w), id, w.agents.reader.agentId, "reader");
  await seedRequest(w, id, { id: w.agents.pending.agentId, name: w.agents.pending.agentName });
  return id;
}

/** A calendar with one child of each kind and a pending request of the pending caller. */
async function fixture(w: World, { id, name }: Calendar, visibility: Visibility): Promise<Fixture> {
  const pending = w.agents.pending;
  return {
    id,
    name,
    visibility,
    eventId: await freshEvent(w, id),
    viewId: await freshView(w, id),
    layerId: await freshLayer(w, id),
    grantId: await freshGrant(w, id),
    requestId: await seedRequest(w, id, { id: pending.agentId, name: pending.agentName }),
  };
}

const onCal = (cal: Fixture | undefined): Fixture => {
  if (!cal) throw new Error("this row needs a calendar");
  return cal;
};

/** One row per route: `METHOD /path`. */
const ROWS: Record<string, Row> = {
  // Identity
  "POST /v1/mint": { access: "open", cell: async () => ({ body: { name: unique("Minted ") } }) },
  "GET /v1/me": { access: "agent", cell: async () => ({}) },
  "GET /v1/agent-credentials": { access: "agent", cell: async () => ({}) },
  "POST /v1/agent-credentials": { access: "agent", cell: async () => ({ body: { label: unique("matrix ") } }) },
  "DELETE /v1/agent-credentials/{credentialId}": {
    access: "agent",
    cell: async (w, _cal, caller) => {
      const auth = w.auth[caller];
      if (!auth) return { params: { credentialId: "cred_whatever" } };
      const res = await ok(post(w.t, "/v1/agent-credentials", auth).send({}));
      return { params: { credentialId: res.body.credential.id } };
    },
    // A credential of another agent is not the caller's to see.
    wrongParent: (w) => ({ params: { credentialId: w.agents.stranger.credentialId } }),
  },

  // Calendars
  "POST /v1/calendars": {
    access: "agent",
    cell: async () => ({ body: { name: unique("Created ") } }),
    // A calendar it created would lie outside its reach.
    outsideReach: [403, "forbidden"],
  },
  "GET /v1/calendars/{calendarId}": { access: "read", cell: async () => ({}) },
  "PATCH /v1/calendars/{calendarId}": {
    access: "owner",
    cell: async (_w, cal) => ({ body: { name: onCal(cal).name } }),
  },
  "DELETE /v1/calendars/{calendarId}": {
    access: "owner",
    // Each caller deletes a calendar of its own: one like the fixture, with the same roles around it.
    cell: async (w, cal) => ({ params: { calendarId: await freshCalendar(w, onCal(cal).visibility) } }),
  },

  // Events
  "GET /v1/calendars/{calendarId}/events": { access: "read", cell: async () => ({ query: "layers=all" }) },
  "POST /v1/calendars/{calendarId}/events": {
    access: "writer",
    cell: async () => ({ body: { name: unique("Posted ") } }),
  },
  "GET /v1/calendars/{calendarId}/events/{eventId}": {
    access: "read",
    cell: async (_w, cal) => ({ params: { eventId: onCal(cal).eventId } }),
    wrongParent: (w) => ({ params: { eventId: w.elsewhere.eventId } }),
  },
  "PATCH /v1/calendars/{calendarId}/events/{eventId}": {
    access: "writer",
    cell: async (_w, cal) => ({ params: { eventId: onCal(cal).eventId }, body: { name: unique("Renamed ") } }),
    wrongParent: (w) => ({ params: { eventId: w.elsewhere.eventId }, body: { name: "Moved?" } }),
  },
  "DELETE /v1/calendars/{calendarId}/events/{eventId}": {
    access: "writer",
    cell: async (w, cal) => ({ params: { eventId: await freshEvent(w, onCal(cal).id) } }),
    wrongParent: (w) => ({ params: { eventId: w.elsewhere.eventId } }),
  },
  "PATCH /v1/calendars/{calendarId}/events/{eventId}/occurrences/{date}": {
    access: "writer",
    cell: async (w, cal) => ({
      params: { eventId: await freshSeries(w, onCal(cal).id), date: "2026-11-02" },
      body: { cancelled: true },
    }),
    wrongParent: (w) => ({ params: { eventId: w.elsewhere.eventId, date: "2026-11-02" }, body: { cancelled: true } }),
  },
  "DELETE /v1/calendars/{calendarId}/events/{eventId}/occurrences/{date}": {
    access: "writer",
    cell: async (w, cal) => ({
      params: { eventId: await freshSeries(w, onCal(cal).id, "2026-11-02"), date: "2026-11-02" },
    }),
    wrongParent: (w) => ({ params: { eventId: w.elsewhere.eventId, date: "2026-11-02" } }),
  },
  "POST /v1/calendars/{calendarId}/import": {
    access: "writer",
    cell: async () => ({
      body: {
        ics: [
          "BEGIN:VCALENDAR",
          "VERSION:2.0",
          "PRODID:-//Matrix//EN",
          "BEGIN:VEVENT",
          `UID:${unique("matrix-")}@example.com`,
          "DTSTAMP:20261101T000000Z",
          "DTSTART;VALUE=DATE:20261201",
          "SUMMARY:Imported",
          "END:VEVENT",
          "END:VCALENDAR",
        ].join("\r\n"),
      },
    }),
  },
  "GET /v1/calendars/{calendarId}/occurrences": {
    access: "read",
    cell: async () => ({ query: "from=2026-11-01&to=2026-12-31" }),
  },
  "GET /v1/calendars/{calendarId}/changes": { access: "read", cell: async () => ({}) },

  // Free/busy: calendars named in the query, each judged as a read of its own
  "GET /v1/freebusy": {
    access: "read",
    // A calendar the caller may not read is `{"error": "not_found"}` in its entry: never a refusal.
    cell: async (w) => ({
      query: `calendars=${Object.values(w.calendars)
        .map((c) => c.id)
        .join(",")}&from=2026-11-01&to=2026-11-30`,
    }),
  },
  "GET /v1/freebusy/slots": {
    access: "read",
    cell: async (w) => ({
      query: `calendars=${w.calendars.public.id},${w.calendars.private.id}&from=2026-11-01&to=2026-11-30&minutes=30`,
    }),
    // Every calendar must be readable (one left out would look free): 404 without a grant on the private one.
    instead: (caller) => (ROLE_OF[caller] === null ? [404, "not_found"] : undefined),
    outsideReach: [404, "not_found"],
  },

  // Grants
  "GET /v1/calendars/{calendarId}/grants": { access: "owner", scope: "grants:manage", cell: async () => ({}) },
  "POST /v1/calendars/{calendarId}/grants": {
    access: "owner",
    scope: "grants:manage",
    cell: async (w) => ({ body: { agent_id: (await seedAgent(w)).id, role: "reader" } }),
  },
  "DELETE /v1/calendars/{calendarId}/grants/{grantId}": {
    access: "owner",
    scope: "grants:manage",
    cell: async (w, cal) => ({ params: { grantId: await freshGrant(w, onCal(cal).id) } }),
    wrongParent: (w) => ({ params: { grantId: w.elsewhere.grantId } }),
  },

  // Access requests
  "GET /v1/calendars/{calendarId}/access-requests": { access: "owner", scope: "grants:manage", cell: async () => ({}) },
  "POST /v1/calendars/{calendarId}/access-requests": {
    access: "request",
    cell: async () => ({ body: { role: "owner", message: "matrix" } }),
    instead: (caller) => (ROLE_OF[caller] === "owner" ? [409, "already_granted"] : undefined),
  },
  "POST /v1/calendars/{calendarId}/access-requests/{requestId}": {
    access: "owner",
    scope: "grants:manage",
    cell: async (w, cal) => ({
      params: { requestId: await freshRequest(w, onCal(cal).id) },
      body: { resolution: "deny" },
    }),
    wrongParent: (w) => ({ params: { requestId: w.elsewhere.requestId }, body: { resolution: "deny" } }),
  },

  // Share views
  "GET /v1/calendars/{calendarId}/views": { access: "owner", cell: async () => ({}) },
  "POST /v1/calendars/{calendarId}/views": {
    access: "owner",
    cell: async () => ({ body: { name: unique("Posted view ") } }),
  },
  "PATCH /v1/calendars/{calendarId}/views/{viewId}": {
    access: "owner",
    cell: async (_w, cal) => ({ params: { viewId: onCal(cal).viewId }, body: { name: unique("Renamed view ") } }),
    wrongParent: (w) => ({ params: { viewId: w.elsewhere.viewId }, body: { name: "Moved?" } }),
  },
  "DELETE /v1/calendars/{calendarId}/views/{viewId}": {
    access: "owner",
    cell: async (w, cal) => ({ params: { viewId: await freshView(w, onCal(cal).id) } }),
    wrongParent: (w) => ({ params: { viewId: w.elsewhere.viewId } }),
  },

  // Layers
  "GET /v1/calendars/{calendarId}/layers": { access: "read", cell: async () => ({}) },
  "POST /v1/calendars/{calendarId}/layers": {
    access: "owner",
    cell: async (w) => {
      const target = await newCalendar(w.t, w.agents.owner, { name: unique("Attached ") });
      return { body: { calendar_id: target.id, key: unique("key") } };
    },
  },
  "DELETE /v1/calendars/{calendarId}/layers/{layerId}": {
    access: "owner",
    cell: async (w, cal) => ({ params: { layerId: await freshLayer(w, onCal(cal).id) } }),
    wrongParent: (w) => ({ params: { layerId: w.elsewhere.layerId } }),
  },

  // Webhooks: an agent's own; another agent's is 404.
  "GET /v1/webhooks": { access: "agent", cell: async () => ({}) },
  "POST /v1/webhooks": {
    access: "agent",
    cell: async (w) => ({ body: { url: "http://127.0.0.1:9/hook", calendars: [w.calendars.public.id] } }),
    outsideReach: [404, "not_found"],
  },
  ...Object.fromEntries(
    (
      [
        ["GET", "", undefined],
        ["PATCH", "", { description: "matrix" }],
        ["DELETE", "", undefined],
        ["POST", "/rotate-secret", {}],
        ["POST", "/test", {}],
        ["GET", "/deliveries", undefined],
      ] as const
    ).map(([method, suffix, body]): [string, Row] => [
      `${method} /v1/webhooks/{webhookId}${suffix}`,
      {
        access: "agent",
        cell: async (w, _cal, caller) => ({ params: { webhookId: await freshWebhook(w, caller) }, body }),
        wrongParent: () => ({ params: { webhookId: strangersWebhook }, body }),
        // Its agent's webhook, but one following a calendar the credential does not reach.
        outsideReach: [404, "not_found"],
      },
    ]),
  ),
};

const keyOf = (route: AnyRoute) => `${route.method.toUpperCase()} ${route.path}`;
const isCalendarRoute = (route: AnyRoute) => route.path.includes("{calendarId}");

const atLeast = (role: Role | null, min: Role) =>
  role !== null && ["reader", "writer", "owner"].indexOf(role) >= ["reader", "writer", "owner"].indexOf(min);

/** The answer docs/api.md#access implies, in its order of precedence. */
function expected(row: Row, visibility: Visibility | undefined, caller: Caller): [number, string | null] {
  if (row.access === "open") return [200, null];
  if (caller === "anonymous" && row.access !== "read") return [401, "unauthorized"];
  if (caller === RESTRICTED) return visibility ? [404, "not_found"] : (row.outsideReach ?? [200, null]);
  if (row.access === "agent") return [200, null];
  const role = ROLE_OF[caller];
  if (visibility === "private" && role === null) return [404, "not_found"];
  if (row.scope === "grants:manage" && caller === "owner-without-grants-scope") return [403, "insufficient_scope"];
  const min: Role | null = row.access === "owner" ? "owner" : row.access === "writer" ? "writer" : null;
  if (min && !atLeast(role, min)) return [403, "forbidden"];
  return row.instead?.(caller) ?? [200, null];
}

function send(w: World, route: AnyRoute, cal: Fixture | undefined, auth: Auth | undefined, cell: Cell) {
  const params: Record<string, string> = { ...(cal ? { calendarId: cal.id } : {}), ...cell.params };
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`row for ${keyOf(route)} gives no {${name}}`);
    return params[name];
  });
  const url = cell.query ? `${path}?${cell.query}` : path;
  let req = request(w.t.app)[route.method](url);
  if (route.method === "post") req = req.set("Idempotency-Key", freshKey());
  if (auth) req = req.set(auth);
  return route.method === "post" || route.method === "patch" ? req.send(cell.body ?? {}) : req;
}

const world = {} as World;

beforeAll(async () => {
  // Webhook rows subscribe a loopback URL (nothing listens: a test ping fails at once).
  world.t = createTestApp({ config: loopbackConfig() });
  // One owner creates a calendar for many of the cases: more than the 100 a quota allows.
  const quotas = { ...DEFAULT_QUOTAS, calendars_per_agent: 10_000, webhooks_per_agent: 1_000 };
  world.t.deps.config = { ...world.t.deps.config, quotas };
  const { calendars, ...shared } = await sharingWorld(world.t);
  const agents = { ...shared, pending: await mintAgent(world.t, "Pending") };
  world.agents = agents;
  world.auth = {
    owner: agents.owner.auth,
    writer: agents.writer.auth,
    reader: agents.reader.auth,
    pending: agents.pending.auth,
    stranger: agents.stranger.auth,
    anonymous: undefined,
    "owner-without-grants-scope": await laterCredential(world.t, agents.owner),
    // Made below, once the calendar it is restricted to exists.
    [RESTRICTED]: undefined,
  };
  world.calendars = {
    private: await fixture(world, calendars.private, "private"),
    unlisted: await fixture(world, calendars.unlisted, "unlisted"),
    public: await fixture(world, calendars.public, "public"),
  };
  // The writer and reader hold their roles there too, so a child found there by id alone would answer them.
  const elsewhere = await newCalendar(world.t, agents.owner, { name: "Elsewhere", visibility: "private" });
  await grantRole(world.t, agents.owner, elsewhere.id, agents.writer.agentId, "writer");
  await grantRole(world.t, agents.owner, elsewhere.id, agents.reader.agentId, "reader");
  world.elsewhere = await fixture(world, elsewhere, "private");
  const scopes = ["agent:read", "calendar:read", "calendar:write", "grants:manage"];
  const restricted = await ok(
    post(world.t, "/v1/agent-credentials", owner(world)).send({ scopes, calendars: [elsewhere.id] }),
  );
  world.auth[RESTRICTED] = { Authorization: `Bearer ${restricted.body.token}` };
});
afterAll(async () => {
  await world.t.close();
});

describe("access matrix", () => {
  it("has a row for every route of the API, and no row for a route that does not exist", () => {
    const routeKeys = apiRoutes.map(keyOf);
    expect(
      routeKeys.filter((k) => !(k in ROWS)),
      "routes without a row in ROWS",
    ).toEqual([]);
    expect(
      Object.keys(ROWS).filter((k) => !routeKeys.includes(k)),
      "rows for routes that do not exist",
    ).toEqual([]);
  });

  describe.each(apiRoutes.map((route) => [keyOf(route), route] as const))("%s", (key, route) => {
    const visibilities: Array<Visibility | undefined> = isCalendarRoute(route) ? VISIBILITIES : [undefined];

    it.each(visibilities.map((v) => [v ?? "no calendar", v] as const))(
      "answers every caller as docs/api.md#access implies (%s)",
      async (_label, visibility) => {
        const row = ROWS[key];
        if (!row) throw new Error(`no row for ${key} in ROWS`);
        const cal = visibility ? world.calendars[visibility] : undefined;
        const mismatches: string[] = [];
        for (const caller of CALLERS) {
          const cell = await row.cell(world, cal, caller);
          const res = await send(world, route, cal, world.auth[caller], cell);
          const [status, code] = expected(row, visibility, caller);
          const gotCode = res.body?.error?.code ?? null;
          if (res.status !== status || (code !== null && gotCode !== code)) {
            mismatches.push(
              `${caller}: expected ${status} ${code ?? ""}, got ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`,
            );
          }
        }
        expect(mismatches).toEqual([]);
      },
    );

    if (ROWS[key]?.wrongParent) {
      it("answers 404 for an id of another calendar addressed through this one, even to its owner", async () => {
        const row = ROWS[key];
        for (const visibility of visibilities) {
          const cal = visibility ? world.calendars[visibility] : undefined;
          const res = await send(world, route, cal, world.auth.owner, row.wrongParent!(world, cal ?? world.elsewhere));
          expect(
            [res.status, res.body?.error?.code],
            `${visibility ?? "no calendar"}: ${JSON.stringify(res.body)}`,
          ).toEqual([404, "not_found"]);
        }
      });
    }
  });
});

/**
 * Ids that are paths (docs/api.md#ids-and-text): another record's path in an id slot is no id at
 * all, so every caller, the owner included, gets 404 (401 first without a token where one is
 * required), and a body id that is a path is 400.
 */
describe("access matrix: ids that are paths", () => {
  const tricks = (cal: Fixture) => [
    `${cal.id}%2Fevents%2F${cal.eventId}`,
    `${cal.id}%2Fviews%2F${cal.viewId}`,
    `${cal.id}%2F..%2F${world.elsewhere.id}`,
    "..",
  ];

  it.each(apiRoutes.filter(isCalendarRoute).map((route) => [keyOf(route), route] as const))(
    "%s",
    async (key, route) => {
      const mismatches: string[] = [];
      for (const visibility of VISIBILITIES) {
        const cal = world.calendars[visibility];
        // One cell per calendar: no trick reaches a command, so nothing it names is consumed.
        const rowCell = await ROWS[key].cell(world, cal, "owner");
        const { calendarId: _ownCalendar, ...params } = rowCell.params ?? {};
        const cell = { ...rowCell, params };
        for (const caller of ["owner", "stranger", "anonymous"] as const) {
          for (const calendarId of tricks(cal)) {
            // The trick stands where the calendar id goes, whatever calendar the row's cell names.
            const res = await send(world, route, { ...cal, id: calendarId }, world.auth[caller], cell);
            const expected =
              caller === "anonymous" && route.auth === "required" ? [401, "unauthorized"] : [404, "not_found"];
            if (res.status !== expected[0] || res.body?.error?.code !== expected[1]) {
              mismatches.push(
                `${visibility} ${caller} ${calendarId}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`,
              );
            }
          }
        }
      }
      expect(mismatches).toEqual([]);
    },
  );

  it("a body id that is a path is 400 invalid_request, even for the owner", async () => {
    const cal = world.calendars.public;
    const hidden = world.calendars.private;
    const layer = await post(world.t, `/v1/calendars/${cal.id}/layers`, owner(world)).send({
      calendar_id: `${hidden.id}/events/${hidden.eventId}`,
      key: "loot",
    });
    expect([layer.status, layer.body.error?.code, layer.body.error?.details?.field]).toEqual([
      400,
      "invalid_request",
      "calendar_id",
    ]);
    const grant = await post(world.t, `/v1/calendars/${cal.id}/grants`, owner(world)).send({
      agent_id: `${world.agents.stranger.agentId}/memberships/${hidden.id}`,
      role: "owner",
    });
    expect([grant.status, grant.body.error?.code, grant.body.error?.details?.field]).toEqual([
      400,
      "invalid_request",
      "agent_id",
    ]);
  });
});

/**
 * The humans' pages (docs/api.md#humans-claims-and-accounts), as each kind of visitor: a browser with no cookie
 * (so no CSRF value either), one signed out, the account an agent is linked to, and another
 * account. A claim link is a capability: whoever holds an open one may see and claim its
 * agent; once used it is 410 to everyone and names nobody. An account's agents are never
 * visible to another account, nor revocable by it (404, as for an id that is no agent).
 */
describe("access matrix: claim and account pages", () => {
  type Visitor = "no-cookie" | "signed-out" | "owner-account" | "other-account";
  const VISITORS: Visitor[] = ["no-cookie", "signed-out", "owner-account", "other-account"];
  let site: AccountsTestApp;
  let visitors: Record<Visitor, Human>;
  /** Linked to owner-account through its claim link, whose path stays here (used). */
  let linked: { agentId: string; name: string; usedClaim: string };

  const mintFor = async (name: string) => {
    const res = await post(site, "/v1/mint").send({ name });
    expect(res.status).toBe(200);
    return { agentId: res.body.agent.id as string, claim: new URL(res.body.claim_url as string).pathname };
  };

  beforeAll(async () => {
    site = createAccountsTestApp();
    const signedOut = new Human(site);
    await signedOut.get("/account");
    visitors = {
      "no-cookie": new Human(site),
      "signed-out": signedOut,
      "owner-account": await new Human(site).signIn(site.accounts, "uid-owner"),
      "other-account": await new Human(site).signIn(site.accounts, "uid-other"),
    };
    const minted = await mintFor("Linked Agent");
    const owner = visitors["owner-account"];
    await owner.get(minted.claim);
    expect((await owner.post(minted.claim)).status).toBe(303);
    await owner.get("/account");
    linked = { agentId: minted.agentId, name: "Linked Agent", usedClaim: minted.claim };
  });
  afterAll(() => site.close());

  /** Each row: the status each visitor gets; no answer to anyone but the owner names the owner's agent. */
  const ROWS: Array<{ route: string; send: (v: Human) => Promise<request.Response>; expect: Record<Visitor, number> }> =
    [
      {
        route: "GET /claim/{open link}",
        send: async (v) => v.get((await mintFor("Fresh")).claim),
        expect: { "no-cookie": 200, "signed-out": 200, "owner-account": 200, "other-account": 200 },
      },
      {
        route: "GET /claim/{used link}",
        send: (v) => v.get(linked.usedClaim),
        expect: { "no-cookie": 410, "signed-out": 410, "owner-account": 410, "other-account": 410 },
      },
      {
        route: "POST /claim/{open link}",
        send: async (v) => v.post((await mintFor("Fresh")).claim),
        expect: { "no-cookie": 403, "signed-out": 401, "owner-account": 303, "other-account": 303 },
      },
      {
        route: "POST /claim/{used link}",
        send: (v) => v.post(linked.usedClaim),
        expect: { "no-cookie": 403, "signed-out": 401, "owner-account": 410, "other-account": 410 },
      },
      {
        route: "GET /account",
        send: (v) => v.get("/account"),
        expect: { "no-cookie": 200, "signed-out": 200, "owner-account": 200, "other-account": 200 },
      },
      {
        route: "POST /account/onboard-tokens",
        send: (v) => v.post("/account/onboard-tokens"),
        expect: { "no-cookie": 403, "signed-out": 401, "owner-account": 200, "other-account": 200 },
      },
      {
        route: "POST /account/agents/{agentId}/revoke (another account's agent, or none)",
        send: (v) => v.post(`/account/agents/${v === visitors["owner-account"] ? "agt_none" : linked.agentId}/revoke`),
        expect: { "no-cookie": 403, "signed-out": 401, "owner-account": 404, "other-account": 404 },
      },
    ];

  it.each(ROWS.map((row) => [row.route, row] as const))("%s", async (_route, row) => {
    const got: Record<string, number> = {};
    for (const visitor of VISITORS) {
      // A browser with no cookie gets one from its first answer: each request starts a new one.
      const res = await row.send(visitor === "no-cookie" ? new Human(site) : visitors[visitor]);
      got[visitor] = res.status;
      if (visitor !== "owner-account") {
        expect(res.text, `${visitor} must not see the owner's agent`).not.toContain(linked.agentId);
        expect(res.text, `${visitor} must not see the owner's agent`).not.toContain(linked.name);
      }
    }
    expect(got).toEqual(row.expect);
  });

  it("lists the agent on its own account's page only, and it keeps working until that account revokes it", async () => {
    const own = await visitors["owner-account"].get("/account");
    expect(own.text).toContain(linked.agentId);
    expect(own.text).toContain(`action="/account/agents/${linked.agentId}/revoke"`);
    expect(await agentOwner(linked.agentId)).toBe("uid-owner");
    expect((await visitors["owner-account"].post(`/account/agents/${linked.agentId}/revoke`)).status).toBe(303);
  });

  const agentOwner = async (agentId: string) => (await site.deps.store.get(paths.agent(agentId)))?.data.owner_user_id;
});
