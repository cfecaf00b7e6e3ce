import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import {
  resolveViewSlug,
  viewDisplayFor,
  viewEventSources,
  viewRange,
  viewShows,
} from "../../functions/src/domain/queries/views.js";
import type { CalendarRecord, ShareViewRecord } from "../../functions/src/domain/records.js";
import type { ViewFilter } from "../../functions/src/domain/types.js";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { prepareViewPage } from "../../functions/src/pages/load.js";
import { allowedLenses, chooseLens } from "../../functions/src/pages/period.js";
import { appPerTest, BASE_URL } from "../helpers/app.js";
import { del, expectError, get, patch, post } from "../helpers/http.js";
import { expandFeed } from "../helpers/ics-oracle.js";
import {
  grantRole,
  newCalendar,
  newEvent,
  sharingWorld,
  type MintedAgent,
  type SharingWorld,
} from "../helpers/factories.js";
import { seedScopedToken } from "../helpers/store.js";

const t = appPerTest();
let world: SharingWorld;
let owner: MintedAgent;
let stranger: MintedAgent;
/** The world's private calendar: the views under test are its own. */
let calId: string;

beforeEach(async () => {
  world = await sharingWorld(t);
  ({ owner, stranger } = world);
  calId = world.calendars.private.id;
});

const viewsPath = (id = calId) => `/v1/calendars/${id}/views`;
const createView = (body: Record<string, unknown>, auth = owner.auth, id = calId) =>
  post(t, viewsPath(id), auth).send(body);
const DEFAULT_FILTER: ViewFilter = {
  layers: null,
  categories: null,
  from: null,
  to: null,
  include_someday: true,
  include_recurring: true,
};

describe("POST /v1/calendars/{calendarId}/views", () => {
  it("climbs 401 -> 400 -> 404/403 -> success, spelling out every default", async () => {
    expectError(await post(t, viewsPath()).send({ name: "Press" }), 401, "unauthorized");
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, "name"],
      [{ name: "x".repeat(201) }, "name"],
      [{ name: "Press", slug: "No Caps" }, "slug"],
      [{ name: "Press", filter: { layer: ["main"] } }, "filter.layer"],
      [{ name: "Press", filter: { from: "2026-02-30" } }, "filter.from"],
      [{ name: "Press", filter: { from: "2026-03-02", to: "2026-03-01" } }, "filter.to"],
      [{ name: "Press", filter: { layers: ["ghost"] } }, "filter.layers"],
      [{ name: "Press", display: { default_view: "week", views: ["month"] } }, "display.default_view"],
      [{ name: "Press", display: { views: ["month", "month"] } }, "display.views"],
    ];
    for (const [body, field] of cases) {
      const res = await createView(body);
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.field, JSON.stringify(body)).toBe(field);
    }
    expectError(await createView({ name: "Press" }, stranger.auth), 404, "not_found");
    expectError(await createView({ name: "Press" }, world.writer.auth), 403, "forbidden");
    const readOnly = await seedScopedToken(t.deps, owner, ["agent:read", "calendar:read", "grants:manage"]);
    expectError(await createView({ name: "Press" }, readOnly), 403, "insufficient_scope");

    const res = await createView({ name: "Press" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^viw_/),
      calendar_id: calId,
      name: "Press",
      slug: expect.stringMatching(/^[a-z0-9]{26,}$/),
      url: `${BASE_URL}/v/${res.body.slug}`,
      feed_url: `${BASE_URL}/v/${res.body.slug}.ics`,
      subscribe: {
        webcal: `webcal://almanac.test/v/${res.body.slug}.ics`,
        google: `https://calendar.google.com/calendar/r?cid=webcal%3A%2F%2Falmanac.test%2Fv%2F${res.body.slug}.ics`,
        outlook: `https://outlook.live.com/calendar/0/addfromweb?url=https%3A%2F%2Falmanac.test%2Fv%2F${res.body.slug}.ics&name=Press`,
      },
      filter: DEFAULT_FILTER,
      display: { default_view: null, views: null },
      created_at: "2026-11-22T10:00:00.000Z",
      updated_at: "2026-11-22T10:00:00.000Z",
      revoked_at: null,
    });
    const stored = await t.deps.store.get<ShareViewRecord>(paths.view(calId, res.body.id));
    expect(stored?.data.filter).toEqual(DEFAULT_FILTER);
    expect((await t.deps.store.get(paths.viewSlug(res.body.slug)))?.data).toEqual({
      owner_id: res.body.id,
      calendar_id: calId,
    });
  });

  it("takes a given slug once among views, answering slug_taken with free suggestions", async () => {
    const first = (await createView({ name: "Press", slug: "press-kit" }).expect(200)).body;
    expect(first.url).toBe(`${BASE_URL}/v/press-kit`);
    const other = await newCalendar(t, stranger, { name: "Other" });
    const taken = await createView({ name: "Press", slug: "press-kit" }, stranger.auth, other.id);
    expectError(taken, 409, "slug_taken");
    expect(taken.body.error.details.available.length).toBeGreaterThanOrEqual(1);
    for (const slug of taken.body.error.details.available) {
      await createView({ name: "Press", slug }, stranger.auth, other.id).expect(200);
    }
    // View slugs and calendar slugs are separate namespaces: /v/ and /c/.
    const calendarSlug = (await newCalendar(t, owner, { name: "Taken", slug: "shared-name" })).slug;
    await createView({ name: "Same", slug: calendarSlug }).expect(200);
  });

  it("accepts main and attached layer keys, and a full filter and display", async () => {
    const team = await newCalendar(t, owner, { name: "Team" });
    await post(t, `/v1/calendars/${calId}/layers`, owner.auth).send({ calendar_id: team.id, key: "team" }).expect(200);
    const body = {
      name: "Team only",
      filter: {
        layers: ["main", "team"],
        categories: ["launch"],
        from: "2026-12-01",
        to: "2026-12-31",
        include_someday: false,
        include_recurring: false,
      },
      display: { default_view: "week", views: ["week", "schedule"] },
    };
    const res = await createView(body).expect(200);
    expect(res.body).toMatchObject({ filter: body.filter, display: body.display });
  });
});

describe("PATCH and DELETE /v1/calendars/{calendarId}/views/{viewId}", () => {
  it("renames, replaces filter and display whole, and refuses a slug", async () => {
    const view = (
      await createView({
        name: "Press",
        filter: { categories: ["launch"], include_someday: false },
        display: { default_view: "month" },
      }).expect(200)
    ).body;
    const path = `${viewsPath()}/${view.id}`;
    expectError(await patch(t, path).send({ name: "x" }), 401, "unauthorized");
    const slug = await patch(t, path, owner.auth).send({ slug: "new-address" });
    expectError(slug, 400, "invalid_request");
    expect(slug.body.error.details.field).toBe("slug");
    expectError(await patch(t, path, owner.auth).send({ filter: { layers: ["ghost"] } }), 400, "invalid_request");
    expectError(await patch(t, path, stranger.auth).send({ name: "Mine" }), 404, "not_found");

    t.clock.advance(1000);
    const renamed = (await patch(t, path, owner.auth).send({ name: "Press kit" }).expect(200)).body;
    expect(renamed).toEqual({
      ...view,
      name: "Press kit",
      subscribe: { ...view.subscribe, outlook: view.subscribe.outlook.replace(/&name=Press$/, "&name=Press%20kit") },
      updated_at: "2026-11-22T10:00:01.000Z",
    });
    const replaced = (
      await patch(t, path, owner.auth)
        .send({ filter: { from: "2027-01-01" }, display: {} })
        .expect(200)
    ).body;
    expect(replaced.filter).toEqual({ ...DEFAULT_FILTER, from: "2027-01-01" });
    expect(replaced.display).toEqual({ default_view: null, views: null });
    expect(replaced.slug).toBe(view.slug);
    expect((await t.deps.store.get<ShareViewRecord>(paths.view(calId, view.id)))?.data).toMatchObject({
      name: "Press kit",
      filter: { ...DEFAULT_FILTER, from: "2027-01-01" },
    });
  });

  it("tombstones on DELETE; a revoked view is 404 for PATCH, DELETE and the slug lookup", async () => {
    const view = (await createView({ name: "Press" }).expect(200)).body;
    const path = `${viewsPath()}/${view.id}`;
    expect((await resolveViewSlug(t.deps, view.slug))?.view.id).toBe(view.id);
    expectError(await del(t, path), 401, "unauthorized");
    expectError(await del(t, path, stranger.auth), 404, "not_found");

    t.clock.advance(2000);
    expect((await del(t, path, owner.auth).expect(200)).body).toEqual({ deleted: view.id });
    expect(await resolveViewSlug(t.deps, view.slug)).toBeNull();
    expectError(await patch(t, path, owner.auth).send({ name: "Back" }), 404, "not_found");
    expectError(await del(t, path, owner.auth), 404, "not_found");
    const list = (await get(t, viewsPath(), owner.auth).expect(200)).body;
    expect(list).toEqual({
      views: [
        { ...view, subscribe: null, revoked_at: "2026-11-22T10:00:02.000Z", updated_at: "2026-11-22T10:00:02.000Z" },
      ],
      next_cursor: null,
    });
  });

  it("answers 404 for a view of another calendar addressed through this one", async () => {
    const otherCal = owner.calendarId;
    const foreign = (await createView({ name: "Elsewhere" }, owner.auth, otherCal).expect(200)).body;
    expectError(await patch(t, `${viewsPath()}/${foreign.id}`, owner.auth).send({ name: "x" }), 404, "not_found");
    expectError(await del(t, `${viewsPath()}/${foreign.id}`, owner.auth), 404, "not_found");
  });
});

describe("GET /v1/calendars/{calendarId}/views", () => {
  it("lists live and revoked views, oldest first, for owners with calendar:write", async () => {
    expectError(await get(t, viewsPath()), 401, "unauthorized");
    expectError(await get(t, viewsPath(), stranger.auth), 404, "not_found");
    const readOnly = await seedScopedToken(t.deps, owner, ["calendar:read", "grants:manage"]);
    expectError(await get(t, viewsPath(), readOnly), 403, "insufficient_scope");
    const ids: string[] = [];
    for (const name of ["A", "B", "C"]) {
      t.clock.advance(1000);
      ids.push((await createView({ name }).expect(200)).body.id);
    }
    await del(t, `${viewsPath()}/${ids[1]}`, owner.auth).expect(200);
    const all = (await get(t, viewsPath(), owner.auth).expect(200)).body;
    expect(all.views.map((v: { id: string; revoked_at: string | null }) => [v.id, v.revoked_at !== null])).toEqual([
      [ids[0], false],
      [ids[1], true],
      [ids[2], false],
    ]);
    const page = (await get(t, `${viewsPath()}?limit=2`, owner.auth).expect(200)).body;
    const rest = (await get(t, `${viewsPath()}?limit=2&cursor=${page.next_cursor}`, owner.auth).expect(200)).body;
    expect([...page.views, ...rest.views].map((v: { id: string }) => v.id)).toEqual(ids);
  });
});

describe("what a view shows", () => {
  it("viewShows applies layers, categories, kinds and the date range", () => {
    const item = { layer: "main", kind: "one-off" as const, category: "launch", date: "2026-12-10" };
    expect(viewShows(DEFAULT_FILTER, item)).toBe(true);
    expect(viewShows(DEFAULT_FILTER, { ...item, kind: "someday", date: null, category: null })).toBe(true);
    expect(viewShows({ ...DEFAULT_FILTER, layers: ["team"] }, item)).toBe(false);
    expect(viewShows({ ...DEFAULT_FILTER, layers: ["team"] }, { ...item, layer: "team" })).toBe(true);
    expect(viewShows({ ...DEFAULT_FILTER, categories: ["ops"] }, item)).toBe(false);
    expect(viewShows({ ...DEFAULT_FILTER, categories: ["ops"] }, { ...item, category: null })).toBe(false);
    expect(viewShows({ ...DEFAULT_FILTER, include_someday: false }, { ...item, kind: "someday", date: null })).toBe(
      false,
    );
    expect(viewShows({ ...DEFAULT_FILTER, include_recurring: false }, { ...item, kind: "recurring" })).toBe(false);
    expect(viewShows({ ...DEFAULT_FILTER, from: "2026-12-11" }, item)).toBe(false);
    expect(viewShows({ ...DEFAULT_FILTER, to: "2026-12-09" }, item)).toBe(false);
    expect(viewShows({ ...DEFAULT_FILTER, from: "2026-12-10", to: "2026-12-10" }, item)).toBe(true);
    // A whole series or a someday event has no date to bound.
    expect(viewShows({ ...DEFAULT_FILTER, from: "2027-01-01" }, { ...item, kind: "recurring", date: null })).toBe(true);
  });

  it("viewDisplayFor falls back to the calendar's settings for null display keys", () => {
    const calendar = { default_view: "week", views: null } as CalendarRecord;
    const view = (display: ShareViewRecord["display"]) => ({ display }) as ShareViewRecord;
    expect(viewDisplayFor(view({ default_view: null, views: null }), calendar)).toEqual({
      default_view: "week",
      views: null,
    });
    expect(viewDisplayFor(view({ default_view: "month", views: null }), calendar)).toEqual({
      default_view: "month",
      views: null,
    });
    // The calendar's default is not offered by the view's lenses: the page opens on the first it offers.
    const narrowed = viewDisplayFor(view({ default_view: null, views: ["timeline", "month"] }), calendar);
    expect(narrowed).toEqual({ default_view: "week", views: ["timeline", "month"] });
    expect(chooseLens(undefined, allowedLenses(narrowed.views), narrowed.default_view)).toBe("month");
  });

  it("viewRange clips a requested range to the view's", () => {
    expect(viewRange(DEFAULT_FILTER, "2026-12-01", "2026-12-31")).toEqual({ from: "2026-12-01", to: "2026-12-31" });
    expect(viewRange({ ...DEFAULT_FILTER, from: "2026-12-10", to: "2027-02-01" }, "2026-12-01", "2026-12-31")).toEqual({
      from: "2026-12-10",
      to: "2026-12-31",
    });
    expect(viewRange({ ...DEFAULT_FILTER, to: "2026-11-30" }, "2026-12-01", "2026-12-31")).toBeNull();
  });

  it("shows a private layer only while an owner of the view's calendar holds the owner role on it", async () => {
    const open = await newCalendar(t, stranger, { name: "Open", visibility: "public" });
    const hidden = await newCalendar(t, stranger, { name: "Hidden", visibility: "private" });
    await grantRole(t, stranger.auth, hidden.id, owner.agentId, "reader");
    for (const [id, key] of [
      [open.id, "open"],
      [hidden.id, "hidden"],
    ]) {
      t.clock.advance(1000);
      await post(t, `/v1/calendars/${calId}/layers`, owner.auth).send({ calendar_id: id, key }).expect(200);
    }
    const all = (await createView({ name: "All" }).expect(200)).body;
    const hiddenOnly = (await createView({ name: "Hidden", filter: { layers: ["hidden"] } }).expect(200)).body;
    const sourcesOf = async (slug: string) =>
      (await viewEventSources(t.deps, (await resolveViewSlug(t.deps, slug))!)).map((s) => s.layer);

    // A reader (or writer) grant reads a private calendar but never publishes it.
    expect(await sourcesOf(all.slug)).toEqual(["main", "open"]);
    expect(await sourcesOf(hiddenOnly.slug)).toEqual([]);
    await grantRole(t, stranger.auth, hidden.id, owner.agentId, "writer");
    expect(await sourcesOf(all.slug)).toEqual(["main", "open"]);
    const ownerGrant = await grantRole(t, stranger.auth, hidden.id, owner.agentId, "owner");
    expect(await sourcesOf(all.slug)).toEqual(["main", "open", "hidden"]);
    expect(await sourcesOf(hiddenOnly.slug)).toEqual(["hidden"]);
    await del(t, `/v1/calendars/${hidden.id}/grants/${ownerGrant.id}`, owner.auth).expect(200);
    expect(await sourcesOf(all.slug)).toEqual(["main", "open"]);
    expect(await sourcesOf(hiddenOnly.slug)).toEqual([]);
  });
});

/**
 * A view decides on each occurrence, not on its series: an exception's category moves one
 * occurrence in or out, and a moved occurrence shows where its new date falls. The view page
 * (its model), the view feed (expanded by ical.js, helpers/ics-oracle.ts) and the calendar's
 * `/occurrences` narrowed by the view's rules list the same occurrences.
 */
describe("a view filters each occurrence", () => {
  interface Seen {
    event_id: string;
    date: string;
    start_time: string | null;
    name: string;
    category: string | null;
  }
  const order = (a: Seen, b: Seen) => JSON.stringify(a).localeCompare(JSON.stringify(b));
  const occurrencePath = (eventId: string, date: string) =>
    `/v1/calendars/${calId}/events/${eventId}/occurrences/${date}`;

  /** What the view's page draws in the schedule lens of the 28 days from `date`. */
  async function pageShows(slug: string, date: string): Promise<Seen[]> {
    const prepared = await prepareViewPage(t.deps, (await resolveViewSlug(t.deps, slug))!, { view: "schedule", date });
    const model = await prepared.load();
    return model.occurrences
      .map((o) => ({
        event_id: o.event.id,
        date: o.date,
        start_time: o.start_time,
        name: o.event.name,
        category: o.event.category,
      }))
      .sort(order);
  }

  /** The view feed's occurrences in [from, to], as ical.js expands them. */
  async function feedShows(slug: string, from: string, to: string): Promise<Seen[]> {
    const res = await request(createPagesApp(t.deps)).get(`/v/${slug}.ics`).buffer(true).expect(200);
    const text = typeof res.text === "string" && res.text.length > 0 ? res.text : String(res.body);
    const startTime = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().slice(11, 16));
    return expandFeed(text, from, to)
      .occurrences.map((o) => ({
        event_id: o.eventId,
        date: o.date,
        start_time: startTime(o.start),
        name: o.name,
        category: o.category,
      }))
      .sort(order);
  }

  /** `/occurrences` of the calendar in [from, to], narrowed by hand to what the view's filter lets through. */
  async function apiShows(filter: Partial<ViewFilter>, from: string, to: string): Promise<Seen[]> {
    const res = await get(t, `/v1/calendars/${calId}/occurrences?from=${from}&to=${to}`, owner.auth).expect(200);
    return (res.body.occurrences as Array<Seen & { original_date: string }>)
      .filter((o) => !filter.categories || (o.category !== null && filter.categories.includes(o.category)))
      .filter((o) => (!filter.from || o.date >= filter.from) && (!filter.to || o.date <= filter.to))
      .map((o) => ({
        event_id: o.event_id,
        date: o.date,
        start_time: o.start_time,
        name: o.name,
        category: o.category,
      }))
      .sort(order);
  }

  it("goes by an exception's category: out of a shown series, into a hidden one", async () => {
    // The private calendar is in UTC: the page's, the feed's and the API's times read alike.
    const standup = await newEvent(t, owner, calId, {
      name: "Standup",
      recur: { type: "weekly", day: 1, starts: "2026-11-23", until: "2027-01-31" },
      start_time: "09:00",
      end_time: "09:15",
      category: "public",
    });
    const board = await newEvent(t, owner, calId, {
      name: "Board",
      recur: { type: "weekly", day: 3, starts: "2026-11-25", until: "2027-01-31" },
      start_time: "14:00",
      category: "private",
    });
    await patch(t, occurrencePath(standup.id, "2026-12-07"), owner.auth).send({ category: "private" }).expect(200);
    await patch(t, occurrencePath(board.id, "2026-12-09"), owner.auth)
      .send({ category: "public", name: "Board (open session)" })
      .expect(200);
    const view = (await createView({ name: "Public", filter: { categories: ["public"] } }).expect(200)).body;

    const [from, to] = ["2026-12-01", "2026-12-28"];
    const expected = await apiShows({ categories: ["public"] }, from, to);
    expect(expected.map((o) => `${o.date} ${o.name} ${o.category}`).sort()).toEqual([
      "2026-12-09 Board (open session) public",
      "2026-12-14 Standup public",
      "2026-12-21 Standup public",
      "2026-12-28 Standup public",
    ]);
    expect(await pageShows(view.slug, from)).toEqual(expected);
    expect(await feedShows(view.slug, from, to)).toEqual(expected);
  });

  it("shows a moved occurrence where it lands, though its series has no other date in the view's", async () => {
    const review = await newEvent(t, owner, calId, {
      name: "Review",
      recur: { type: "weekly", day: 3, starts: "2026-11-25", until: "2026-12-30" },
      start_time: "10:00",
      end_time: "11:00",
      category: "ops",
    });
    await patch(t, occurrencePath(review.id, "2026-12-30"), owner.auth)
      .send({ date: "2027-01-05", start_time: "16:00", end_time: "16:30" })
      .expect(200);
    const filter = { from: "2027-01-01", to: "2027-01-31" };
    const view = (await createView({ name: "January", filter }).expect(200)).body;

    const [from, to] = ["2026-12-20", "2027-01-16"];
    const expected = await apiShows(filter, from, to);
    expect(expected).toEqual([
      { event_id: review.id, date: "2027-01-05", start_time: "16:00", name: "Review", category: "ops" },
    ]);
    expect(await pageShows(view.slug, from)).toEqual(expected);
    expect(await feedShows(view.slug, from, to)).toEqual(expected);
  });
});
