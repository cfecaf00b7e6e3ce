import type { Express } from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApiApp } from "../../functions/src/app.js";
import { quote } from "../../functions/src/domain/errors.js";
import { newId } from "../../functions/src/domain/ids.js";
import { paths } from "../../functions/src/domain/paths.js";
import type { AccessRequestRecord } from "../../functions/src/domain/records.js";
import type { AnyRoute } from "../../functions/src/http/route.js";
import { apiRoutes } from "../../functions/src/routes/index.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { expectError, freshKey, get, post } from "../helpers/http.js";
import { grantRole, mintAgent, type MintedAgent, newCalendar } from "../helpers/factories.js";
import { checkResponses } from "../helpers/check-responses.js";

/**
 * Ids are opaque strings of their prefix and [A-Za-z0-9] (docs/api.md#ids-and-text). Anything else
 * in an id slot of a path (`%2F`, a raw `/`, `..`, a trailing slash, another record's path)
 * is 404, in a body 400, and never reaches the store as part of a document path: an id
 * `{privateId}%2Fevents%2F{eventId}` must not read the event of a private calendar as if it
 * were a calendar. Every route of `apiRoutes`, every id parameter, without a token and with a
 * stranger's token.
 */

type Auth = { Authorization: string };

let t: TestApp;
/** The same API without its id schemas: domain/paths.ts alone must still refuse every trick. */
let bare: Express;
let owner: MintedAgent;
let stranger: MintedAgent;

/** The private calendar and its records: what no trick may show. */
const secret = {
  calendarId: "",
  eventId: "",
  viewId: "",
  grantId: "",
  requestId: "",
  layerId: "",
  credentialId: "",
  webhookId: "",
  agentId: "",
};
/** Names and slugs of the private records; no answer may contain them. */
const SECRET_TEXT = [
  "Hidden Ledger",
  "hidden-ledger-zq",
  "Clandestine Meeting",
  "Backroom View",
  "backroom-view-zq",
  "Attached Vault",
];
/** The stranger's own public calendar: a caller who passes its access check gets as far as the child id. */
let strangerCalendarId = "";

beforeAll(async () => {
  t = createTestApp();
  owner = await mintAgent(t, "Ledger Owner");
  stranger = await mintAgent(t, "Stranger");
  const asker = await mintAgent(t, "Asker");
  const cal = await newCalendar(t, owner, { name: "Hidden Ledger", slug: "hidden-ledger-zq", visibility: "private" });
  secret.calendarId = cal.id;
  secret.agentId = owner.agentId;
  secret.credentialId = owner.credentialId;
  secret.eventId = (
    await post(t, `/v1/calendars/${cal.id}/events`, owner.auth)
      .send({ name: "Clandestine Meeting", date: "2026-12-01" })
      .expect(200)
  ).body.id;
  secret.viewId = (
    await post(t, `/v1/calendars/${cal.id}/views`, owner.auth)
      .send({ name: "Backroom View", slug: "backroom-view-zq" })
      .expect(200)
  ).body.id;
  secret.grantId = (await grantRole(t, owner.auth, cal.id, asker.agentId, "reader")).id;
  const vault = await newCalendar(t, owner, { name: "Attached Vault", visibility: "private" });
  secret.layerId = (
    await post(t, `/v1/calendars/${cal.id}/layers`, owner.auth)
      .send({ calendar_id: vault.id, key: "vault" })
      .expect(200)
  ).body.id;
  const requestRecord: AccessRequestRecord = {
    id: newId("areq"),
    calendar_id: cal.id,
    agent_id: asker.agentId,
    agent_name: asker.agentName,
    role: "writer",
    message: null,
    status: "pending",
    created_at: t.clock().toISOString(),
    resolved_at: null,
    resolved_by: null,
  };
  await t.deps.store.runTransaction(async (tx) =>
    tx.create(paths.accessRequest(cal.id, requestRecord.id), { ...requestRecord }),
  );
  secret.requestId = requestRecord.id;
  secret.webhookId = (
    await post(t, "/v1/webhooks", owner.auth)
      .send({ url: "https://hooks.example.com/ledger", calendars: [cal.id] })
      .expect(200)
  ).body.webhook.id;
  strangerCalendarId = (await newCalendar(t, stranger, { name: "Stranger Board", visibility: "public" })).id;
  bare = createApiApp(t.deps, apiRoutes.map(withoutIdSchemas), { checkOutcome: checkResponses() });
});

afterAll(() => t.close());

/** Path parameters unchecked, and body ids any string: what a route that forgot idOf would do. */
function withoutIdSchemas(route: AnyRoute): AnyRoute {
  if (route.method !== "post") return { ...route, params: undefined };
  if (route.path.endsWith("/layers"))
    return { ...route, params: undefined, body: z.object({ calendar_id: z.string(), key: z.string() }) };
  if (route.path.endsWith("/grants"))
    return {
      ...route,
      params: undefined,
      body: z.object({ agent_id: z.string(), role: z.enum(["reader", "writer"]) }),
    };
  return { ...route, params: undefined };
}

/** Path parameters that name a record: ids, and an occurrence's date (a document key as well). */
const ID_PARAMS = [
  "calendarId",
  "eventId",
  "grantId",
  "requestId",
  "viewId",
  "layerId",
  "credentialId",
  "webhookId",
  "date",
] as const;
type IdParam = (typeof ID_PARAMS)[number];

const idParamsOf = (route: AnyRoute): IdParam[] =>
  [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => {
    const name = m[1] as IdParam;
    if (!ID_PARAMS.includes(name)) throw new Error(`${route.path}: unknown parameter {${name}}; add it to ID_PARAMS`);
    return name;
  });

/** A path that reaches a private record when concatenated into a document path. */
const recordPaths = (): string[] => [
  `${secret.calendarId}/events/${secret.eventId}`,
  `${secret.calendarId}/views/${secret.viewId}`,
  `${secret.calendarId}/grants/${secret.grantId}`,
  `../../calendars/${secret.calendarId}/events/${secret.eventId}`,
  `../../agents/${secret.agentId}/credentials/${secret.credentialId}`,
  `../../webhooks/${secret.webhookId}`,
];

type TrickKind = "encoded-slash" | "raw-slash" | "dot-dot" | "trailing-slash" | "record-path";
interface Trick {
  kind: TrickKind;
  value: string;
}

/** The tricks for one id slot whose honest value is `value`, as they appear in the URL. */
function tricksFor(value: string): Trick[] {
  const encoded = (p: string) => p.split("/").join("%2F");
  return [
    { kind: "encoded-slash", value: `${value}%2F` },
    { kind: "encoded-slash", value: `${value}%2f..` },
    { kind: "raw-slash", value: `${value}/x` },
    { kind: "dot-dot", value: ".." },
    { kind: "dot-dot", value: "%2E%2E" },
    { kind: "dot-dot", value: `${value}%2F..%2F..` },
    { kind: "trailing-slash", value: `${value}/` },
    ...recordPaths().flatMap((p) => [
      { kind: "record-path" as const, value: encoded(p) },
      { kind: "raw-slash" as const, value: p },
    ]),
  ];
}

/** A body the route accepts when everything else is right, so that the id is what decides. */
function bodyFor(route: AnyRoute): object | undefined {
  const key = `${route.method.toUpperCase()} ${route.path}`;
  if (route.method === "delete" || route.method === "get") return undefined;
  if (key.endsWith("/layers")) return { calendar_id: strangerCalendarId, key: "trick" };
  if (key.endsWith("/grants")) return { agent_id: stranger.agentId, role: "reader" };
  if (key.endsWith("/access-requests")) return {};
  if (key.endsWith("/access-requests/{requestId}")) return { resolution: "approve" };
  return { name: "Renamed By Trick" };
}

function send(app: Express, route: AnyRoute, params: Record<string, string>, auth: Auth | undefined) {
  const url = route.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name]);
  let req = request(app)[route.method](
    route.path.endsWith("/occurrences") ? `${url}?from=2026-11-01&to=2026-12-31` : url,
  );
  if (route.method === "post") req = req.set("Idempotency-Key", freshKey());
  if (auth) req = req.set(auth);
  const body = bodyFor(route);
  return { url, req: body ? req.send(body) : req };
}

/** The honest values: the private records, or the stranger's own calendar when a child id is tricked. */
function baseParams(tricked: IdParam, caller: "anonymous" | "stranger"): Record<string, string> {
  const base: Record<string, string> = { ...secret, date: "2026-12-01" };
  if (tricked !== "calendarId") base.calendarId = strangerCalendarId;
  if (tricked === "credentialId" && caller === "stranger") base.credentialId = stranger.credentialId;
  return base;
}

/**
 * What may come back: 404 or 400. 401 for a route that needs a token when none is sent (the
 * token is checked first and reveals nothing). 405 when a raw slash makes the URL another
 * route's path (`/v1/calendars/{id}/views/{viewId}` has no GET), which reveals nothing either.
 */
function allowed(route: AnyRoute, trick: Trick, caller: "anonymous" | "stranger"): number[] {
  const statuses = [400, 404];
  if (caller === "anonymous" && route.auth === "required") statuses.push(401);
  if (trick.kind === "raw-slash") statuses.push(405, ...(caller === "anonymous" ? [401] : []));
  return statuses;
}

/** The answer's text without the echo of the request's own path (whole, or quoted short: domain/errors.ts `quote`). */
function answerText(res: request.Response, url: string): string {
  let text = res.text ?? "";
  for (const echo of [url, safeDecode(url)]) for (const form of [echo, quote(echo)]) text = text.split(form).join("");
  return text;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const secretIds = () => Object.values(secret);

const withIdParams = apiRoutes.filter((route) => idParamsOf(route).length > 0);

const APPS = [
  ["the API", () => t.app],
  ["the API without its id schemas (domain/paths.ts alone)", () => bare],
] as const;

describe("ids in paths", () => {
  it("covers every route with an id in its path", () => {
    expect(withIdParams.length).toBeGreaterThanOrEqual(20);
  });

  describe.each(APPS)("%s", (_app, appOf) => {
    describe.each(withIdParams.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))(
      "%s",
      (_key, route) => {
        it.each(idParamsOf(route).map((p) => [p] as const))(
          "no trick in {%s} reads, writes or shows a private record",
          async (param) => {
            const failures: string[] = [];
            for (const caller of ["anonymous", "stranger"] as const) {
              const base = baseParams(param, caller);
              for (const trick of tricksFor(base[param])) {
                const { url, req } = send(
                  appOf(),
                  route,
                  { ...base, [param]: trick.value },
                  caller === "stranger" ? stranger.auth : undefined,
                );
                const res = await req;
                const text = answerText(res, url);
                const label = `${caller} ${trick.kind} ${route.method.toUpperCase()} ${url}`;
                if (!allowed(route, trick, caller).includes(res.status))
                  failures.push(`${label}: ${res.status} ${text.slice(0, 160)}`);
                else if (typeof res.body?.error?.code !== "string")
                  failures.push(`${label}: no error envelope: ${text.slice(0, 160)}`);
                const leaked = [...SECRET_TEXT, ...secretIds()].filter((s) => text.includes(s));
                if (leaked.length > 0) failures.push(`${label}: shows ${leaked.join(", ")}`);
              }
            }
            expect(failures).toEqual([]);
          },
        );
      },
    );
  });

  it("answers a malformed id in a path 404 not_found, without echoing it", async () => {
    for (const id of ["cal_a%2Fb", "cal_", "evt_abc", "cal_abc-def", "cal_%C3%A9", "CAL_abc", "cal_abc%00"]) {
      const res = await get(t, `/v1/calendars/${id}`, owner.auth);
      expectError(res, 404, "not_found");
      if (id !== "cal_") expect(res.text).not.toContain(safeDecode(id));
    }
  });

  it("a trailing slash is another path: 404 even for the owner", async () => {
    expectError(await get(t, `/v1/calendars/${secret.calendarId}/`, owner.auth), 404, "not_found");
    expectError(
      await get(t, `/v1/calendars/${secret.calendarId}/events/${secret.eventId}/`, owner.auth),
      404,
      "not_found",
    );
    expectError(await get(t, "/v1/me/", owner.auth), 404, "not_found");
  });
});

describe("ids in bodies", () => {
  const layerTricks = () => [
    `${secret.calendarId}/events/${secret.eventId}`,
    `${secret.calendarId}%2Fevents%2F${secret.eventId}`,
    `../calendars/${secret.calendarId}`,
    `${secret.calendarId}/`,
    "..",
    secret.eventId,
    "cal_",
    ` ${secret.calendarId}`,
  ];
  const grantTricks = () => [
    `agt_x/memberships/${secret.calendarId}`,
    `${owner.agentId}/memberships/${secret.calendarId}`,
    `${owner.agentId}%2F`,
    "..",
    secret.calendarId,
    "agt_",
  ];

  it("attaching anything but a calendar id as a layer is 400 invalid_request and attaches nothing", async () => {
    for (const calendarId of layerTricks()) {
      const res = await post(t, `/v1/calendars/${strangerCalendarId}/layers`, stranger.auth).send({
        calendar_id: calendarId,
        key: "loot",
      });
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.field).toBe("calendar_id");
    }
    const listed = await get(t, `/v1/calendars/${strangerCalendarId}/layers`);
    expect(listed.status).toBe(200);
    expect(listed.body.layers).toEqual([]);
  });

  it("a grant to anything but an agent id is 400 invalid_request and stores nothing", async () => {
    for (const agentId of grantTricks()) {
      const res = await post(t, `/v1/calendars/${strangerCalendarId}/grants`, stranger.auth).send({
        agent_id: agentId,
        role: "reader",
      });
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.field).toBe("agent_id");
    }
    const grants = await get(t, `/v1/calendars/${strangerCalendarId}/grants`, stranger.auth);
    expect(grants.body.grants.map((g: { agent_id: string }) => g.agent_id)).toEqual([stranger.agentId]);
  });

  it("without the id schemas, domain/paths.ts still refuses them: 404, nothing attached or stored", async () => {
    for (const calendarId of layerTricks()) {
      const res = await post({ app: bare }, `/v1/calendars/${strangerCalendarId}/layers`, stranger.auth).send({
        calendar_id: calendarId,
        key: "loot",
      });
      expect([res.status, res.body.error?.code], calendarId).toEqual([404, "not_found"]);
      expect(SECRET_TEXT.filter((s) => res.text.includes(s))).toEqual([]);
    }
    for (const agentId of grantTricks()) {
      const res = await post({ app: bare }, `/v1/calendars/${strangerCalendarId}/grants`, stranger.auth).send({
        agent_id: agentId,
        role: "reader",
      });
      expect([res.status, res.body.error?.code], agentId).toEqual([404, "not_found"]);
    }
    expect((await get(t, `/v1/calendars/${strangerCalendarId}/layers`)).body.layers).toEqual([]);
    const grants = await get(t, `/v1/calendars/${strangerCalendarId}/grants`, stranger.auth);
    expect(grants.body.grants.map((g: { agent_id: string }) => g.agent_id)).toEqual([stranger.agentId]);
  });
});

/**
 * Routing is case-sensitive and strict: a path reaches an operation only as the route spells
 * it. Another spelling (a letter's case, a trailing slash, a doubled slash) is 404 in the
 * envelope, so it can neither run the operation nor be counted as another one.
 */
describe("the spelling of a path", () => {
  /** The route's path with the owner's own records in it: the honest request, spelled right. */
  const honestPath = (route: AnyRoute) =>
    route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === "date"
        ? "2026-12-01"
        : name === "credentialId"
          ? owner.credentialId
          : secret[name as keyof typeof secret],
    );

  /** Every other spelling: each literal segment in capitals and capitalized, a trailing slash, doubled slashes. */
  function respellings(path: string): string[] {
    const segments = path.split("/");
    const literal = (i: number) => i > 0 && !Object.values(secret).includes(segments[i]) && i !== segments.length;
    const cased = segments.flatMap((segment, i) => {
      if (!literal(i) || /^\d/.test(segment)) return [];
      const at = (replacement: string) => segments.map((s, j) => (j === i ? replacement : s)).join("/");
      return [at(segment.toUpperCase()), at(segment[0].toUpperCase() + segment.slice(1))];
    });
    const doubled = segments.slice(1).map((_, i) => segments.map((s, j) => (j === i + 1 ? `/${s}` : s)).join("/"));
    return [...cased, `${path}/`, ...doubled, `${path}//`];
  }

  it.each(apiRoutes.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))(
    "%s answers every other spelling 404 not_found, even for the owner",
    async (_key, route) => {
      const path = honestPath(route);
      const failures: string[] = [];
      for (const spelling of respellings(path)) {
        let req = request(t.app)[route.method](
          route.path.endsWith("/occurrences") ? `${spelling}?from=2026-11-01&to=2026-12-31` : spelling,
        );
        if (route.method === "post") req = req.set("Idempotency-Key", freshKey());
        req = req.set(owner.auth);
        const body = bodyFor(route);
        const res = await (body ? req.send(body) : req);
        if (res.status !== 404 || res.body?.error?.code !== "not_found")
          failures.push(`${route.method.toUpperCase()} ${spelling}: ${res.status} ${res.text.slice(0, 120)}`);
      }
      expect(failures).toEqual([]);
    },
  );

  it("answers /openapi.json and /mcp only as spelled", async () => {
    for (const spelling of ["/OpenAPI.json", "/openapi.json/", "//openapi.json"]) {
      expectError(await get(t, spelling), 404, "not_found");
    }
    for (const spelling of ["/MCP", "/Mcp", "/mcp/", "//mcp"]) {
      const res = await request(t.app)
        .post(spelling)
        .set("Accept", "application/json, text/event-stream")
        .send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
      expectError(res, 404, "not_found");
    }
  });
});
