/**
 * Test data made through the API, as an agent would make it, with defaults for whatever a
 * test does not look at; `sharingWorld` for the tests of who may do what; and
 * `makeEventRecord`, an event record in memory for unit tests and storage seeds.
 */
import request from "supertest";
import { expect } from "vitest";
import type { CalendarRecord, EventRecord, ExceptionRecord } from "../../functions/src/domain/records.js";
import type { Role, Visibility } from "../../functions/src/domain/types.js";
import type { TestApp } from "./app.js";
import { authOf, freshKey, post, type Auth, type Caller } from "./http.js";

type App = Pick<TestApp, "app">;
type Body = Record<string, unknown>;

/** Fails the test with the answer's body unless the API answered 200. */
async function ok(res: Promise<request.Response> | request.Test): Promise<request.Response> {
  const answer = await res;
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer;
}

export interface MintedAgent {
  token: string;
  agentId: string;
  agentName: string;
  credentialId: string;
  calendarId: string;
  calendarSlug: string;
  auth: Auth;
}

/** Mints an agent through the API. */
export async function mintAgent(t: App, name = "Scout", body: Body = {}): Promise<MintedAgent> {
  const res = await request(t.app)
    .post("/v1/mint")
    .set("Idempotency-Key", freshKey())
    .send({ name, ...body })
    .expect(200);
  return {
    token: res.body.token,
    agentId: res.body.agent.id,
    agentName: res.body.agent.name,
    credentialId: res.body.credential.id,
    calendarId: res.body.calendar.id,
    calendarSlug: res.body.calendar.slug,
    auth: { Authorization: `Bearer ${res.body.token}` },
  };
}

/** A second credential of the agent: agent:read, calendar:read, calendar:write, no grants:manage. */
export async function laterCredential(t: App, agent: Caller): Promise<Auth> {
  const res = await ok(post(t, "/v1/agent-credentials", authOf(agent)).send({}));
  expect(res.body.credential.scopes).not.toContain("grants:manage");
  return { Authorization: `Bearer ${res.body.token}` };
}

/** A calendar as the API answers it (the fields a test reads most, then the rest). */
export type Calendar = { id: string; slug: string; name: string } & Body;

/** Creates a calendar (named "Shared" unless the body names it); the caller becomes its owner. */
export async function newCalendar(t: App, owner: Caller, body: Body = {}): Promise<Calendar> {
  return (await ok(post(t, "/v1/calendars", authOf(owner)).send({ name: "Shared", ...body }))).body;
}

/** Changes a calendar's settings. */
export async function patchCalendar(t: App, owner: Caller, calendarId: string, body: Body): Promise<Calendar> {
  return (await ok(request(t.app).patch(`/v1/calendars/${calendarId}`).set(authOf(owner)).send(body))).body;
}

/** Creates an event (a someday "Standup" unless the body says otherwise); the answer's body. */
export async function newEvent(t: App, writer: Caller, calendarId: string, body: Body = {}) {
  return (await ok(post(t, `/v1/calendars/${calendarId}/events`, authOf(writer)).send({ name: "Standup", ...body })))
    .body as { id: string } & Body;
}

/** Creates a share view (named "Share" unless the body names it). */
export async function newView(
  t: App,
  owner: Caller,
  calendarId: string,
  body: Body = {},
): Promise<{ id: string; slug: string; url: string }> {
  return (await ok(post(t, `/v1/calendars/${calendarId}/views`, authOf(owner)).send({ name: "Share", ...body }))).body;
}

/** Attaches `calendarId` as the layer `key` of the host calendar. */
export async function attachLayer(t: App, owner: Caller, hostId: string, calendarId: string, key: string) {
  const res = await ok(post(t, `/v1/calendars/${hostId}/layers`, authOf(owner)).send({ calendar_id: calendarId, key }));
  return res.body as { id: string; key: string };
}

/** Grants a role (the owner's credential needs grants:manage, as mint-time tokens have). */
export async function grantRole(t: App, owner: Caller, calendarId: string, agentId: string, role: Role) {
  const res = await ok(post(t, `/v1/calendars/${calendarId}/grants`, authOf(owner)).send({ agent_id: agentId, role }));
  return res.body as { id: string; role: Role; agent_id: string };
}

export interface SharingWorld {
  owner: MintedAgent;
  writer: MintedAgent;
  reader: MintedAgent;
  /** An agent with no role on any of the calendars below. */
  stranger: MintedAgent;
  /** "Team private", "Team unlisted" and "Team public", owned by `owner`; `writer` and `reader` hold those roles on each. */
  calendars: Record<Visibility, Calendar>;
}

/** Four agents named for their roles around three calendars, one of each visibility, all through the API. */
export async function sharingWorld(t: App): Promise<SharingWorld> {
  const owner = await mintAgent(t, "Owner");
  const writer = await mintAgent(t, "Writer");
  const reader = await mintAgent(t, "Reader");
  const stranger = await mintAgent(t, "Stranger");
  const calendars = {} as Record<Visibility, Calendar>;
  for (const visibility of ["private", "unlisted", "public"] as const) {
    const calendar = await newCalendar(t, owner, { name: `Team ${visibility}`, visibility });
    await grantRole(t, owner, calendar.id, writer.agentId, "writer");
    await grantRole(t, owner, calendar.id, reader.agentId, "reader");
    calendars[visibility] = calendar;
  }
  return { owner, writer, reader, stranger, calendars };
}

let eventCounter = 0;

/**
 * An event record as the store holds it, for unit tests and seeds that skip the API: a
 * someday event unless `date` or `recur` says otherwise (the kind follows, as the API sets it).
 */
export function makeEventRecord(overrides: Partial<EventRecord> = {}): EventRecord {
  const n = ++eventCounter;
  return {
    id: `evt_${String(n).padStart(6, "0")}`,
    calendar_id: "cal_1",
    kind: overrides.recur ? "recurring" : overrides.date ? "one-off" : "someday",
    name: `event ${n}`,
    date: null,
    recur: null,
    start_time: null,
    end_time: null,
    category: null,
    notes: null,
    art: null,
    created_by: { id: "agt_1", name: "Scout" },
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

/** A public calendar record in memory for unit tests, named by its id. */
/** An exception record of `series` on `original_date`, as the series has it until `fields` change it. */
export const makeExceptionRecord = (
  series: EventRecord,
  original_date: string,
  fields: Partial<ExceptionRecord> = {},
): ExceptionRecord => ({
  id: `${series.id}_${original_date.replaceAll("-", "")}`,
  calendar_id: "cal_1",
  event_id: series.id,
  original_date,
  cancelled: false,
  date: original_date,
  start_time: series.start_time,
  end_time: series.end_time,
  name: series.name,
  category: series.category,
  notes: series.notes,
  sequence: series.sequence ?? 0,
  created_at: "2026-03-03T10:00:00.000Z",
  updated_at: "2026-03-04T10:00:00.000Z",
  ...fields,
});

export const makeCalendarRecord = (id: string, timezone: string): CalendarRecord => ({
  id,
  name: id,
  slug: id,
  timezone,
  visibility: "public",
  purpose: null,
  default_view: null,
  views: null,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
  revision: "r1",
});
