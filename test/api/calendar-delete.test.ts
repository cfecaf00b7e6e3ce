/**
 * DELETE /v1/calendars/{calendarId} (docs/api.md#deleting-a-calendar): the calendar is 404 on
 * every surface from the answer on, its slugs stay reserved, its creator's quota slot comes
 * back, and the purge removes every document of it but the slug reservations.
 */
import Database from "better-sqlite3";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { NO_CALENDARS_LEFT, PURGE_BATCH } from "../../functions/src/domain/purge/calendars.js";
import { startJob } from "../../functions/src/jobs/local-driver.js";
import { budgetOf } from "../../functions/src/jobs/pass.js";
import { purgeJob, purgePass } from "../../functions/src/jobs/purge.js";
import { runWithin } from "../../functions/src/jobs/scheduled-driver.js";
import { paths } from "../../functions/src/domain/paths.js";
import { DEFAULT_QUOTAS } from "../../functions/src/domain/quotas.js";
import type { Store } from "../../functions/src/storage/port.js";
import { appPerTest, onFirestore, sqliteOnly } from "../helpers/app.js";
import {
  attachLayer,
  grantRole,
  newCalendar,
  newEvent,
  newView,
  sharingWorld,
  type Calendar,
  type SharingWorld,
} from "../helpers/factories.js";
import { del, expectError, get, patch, post } from "../helpers/http.js";
import { seedScopedToken } from "../helpers/store.js";
import { createSiteTestApp } from "../pages/site.js";

const t = appPerTest(createSiteTestApp);
let world: SharingWorld;
/** The calendar deleted in each test: private, with a writer and a reader (the sharing world's). */
let doomed: Calendar;

beforeEach(async () => {
  world = await sharingWorld(t);
  doomed = world.calendars.unlisted;
});

const remove = (id = doomed.id, auth = world.owner.auth) => del(t, `/v1/calendars/${id}`, auth);

/**
 * Every document of the store that names the calendar, in its path or its data, by collection:
 * read from the SQLite file itself, so a collection the purge forgot is counted too.
 */
function documentsNaming(calendarId: string): Record<string, number> {
  const db = new Database(join(t.dataDir, "almanac.sqlite"), { readonly: true });
  try {
    const rows = db
      .prepare("SELECT collection FROM docs WHERE collection LIKE ? OR id LIKE ? OR data LIKE ?")
      .all(...Array(3).fill(`%${calendarId}%`)) as Array<{ collection: string }>;
    const counts: Record<string, number> = {};
    for (const { collection } of rows) {
      const shape = collection.replace(/\/[^/]+\//g, "/*/");
      counts[shape] = (counts[shape] ?? 0) + 1;
    }
    return counts;
  } finally {
    db.close();
  }
}

describe("DELETE /v1/calendars/{calendarId}", () => {
  it("climbs 401 -> 404/403 -> success, and a second delete is 404", async () => {
    expectError(await del(t, `/v1/calendars/${doomed.id}`), 401, "unauthorized");
    expectError(await remove("cal_nope"), 404, "not_found");
    expectError(await remove(world.calendars.private.id, world.stranger.auth), 404, "not_found");
    expectError(await remove(doomed.id, world.stranger.auth), 403, "forbidden");
    expectError(await remove(doomed.id, world.writer.auth), 403, "forbidden");
    const readOnly = await seedScopedToken(t.deps, world.owner, ["calendar:read"]);
    expectError(await remove(doomed.id, readOnly), 403, "insufficient_scope");
    expect((await get(t, `/v1/calendars/${doomed.id}`)).status).toBe(200);

    const res = await remove();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: doomed.id });
    expectError(await remove(), 404, "not_found");
    expect(await t.deps.store.get(paths.calendar(doomed.id))).toBeNull();
    expect(await t.deps.store.get(paths.calendarPurge(doomed.id))).not.toBeNull();
  });

  it("makes the calendar 404 on every surface at once, its views and its place as a layer included", async () => {
    const { owner, writer } = world;
    await newEvent(t, owner, doomed.id, { name: "Doomed review", date: "2026-11-24", start_time: "10:00" });
    const view = await newView(t, owner, doomed.id);
    const host = await newCalendar(t, owner, { name: "Host", visibility: "public" });
    await attachLayer(t, owner, host.id, doomed.id, "doomed");
    const hostOccurrences = `/v1/calendars/${host.id}/occurrences?from=2026-11-23&to=2026-11-29`;
    const shown = await get(t, hostOccurrences);
    expect(shown.body.occurrences, JSON.stringify(shown.body)).toHaveLength(1);

    expect((await remove()).status).toBe(200);

    const base = `/v1/calendars/${doomed.id}`;
    for (const path of [
      base,
      `${base}/events`,
      `${base}/occurrences?from=2026-11-23&to=2026-11-29`,
      `${base}/changes`,
    ]) {
      expectError(await get(t, path, owner.auth), 404, "not_found");
    }
    expectError(await post(t, `${base}/events`, writer.auth).send({ name: "Late" }), 404, "not_found");
    for (const page of [`/c/${doomed.slug}`, `/c/${doomed.slug}.ics`, `/v/${view.slug}`, `/v/${view.slug}.ics`]) {
      expect((await t.http().get(page)).status, page).toBe(404);
    }
    const freebusy = await get(t, `/v1/freebusy?calendars=${doomed.id}&from=2026-11-23&to=2026-11-29`, owner.auth);
    expect(freebusy.body.calendars[doomed.id]).toEqual({ error: "not_found" });
    const me = await get(t, "/v1/me", writer.auth);
    expect(JSON.stringify(me.body.grants)).not.toContain(doomed.id);

    expect((await get(t, hostOccurrences)).body.occurrences).toEqual([]);
    expect((await get(t, `/v1/calendars/${host.id}/layers`, owner.auth)).body.layers).toEqual([]);
    expect((await t.http().get(`/c/${host.slug}.ics`)).text).not.toContain("Doomed review");
  });

  it("keeps its slugs: a new calendar cannot take them, and the old address stays 404", async () => {
    expect((await remove()).status).toBe(200);
    const again = await post(t, "/v1/calendars", world.stranger.auth).send({ name: "Squatter", slug: doomed.slug });
    expectError(again, 409, "slug_taken");
    expect((await t.http().get(`/c/${doomed.slug}`)).status).toBe(404);
  });

  it("gives the creator's calendar slot back at once, even when another owner deletes", async () => {
    const { owner, stranger } = world;
    // The world's three and mint's first.
    t.deps.config = { ...t.deps.config, quotas: { ...DEFAULT_QUOTAS, calendars_per_agent: 4 } };
    expectError(await post(t, "/v1/calendars", owner.auth).send({ name: "Fifth" }), 403, "quota_exceeded");
    await grantRole(t, owner, doomed.id, stranger.agentId, "owner");
    expect((await remove(doomed.id, stranger.auth)).status).toBe(200);
    expect((await post(t, "/v1/calendars", owner.auth).send({ name: "Fifth" })).status).toBe(200);
  });
});

describe("the purge of a deleted calendar", () => {
  it.skipIf(onFirestore)(
    sqliteOnly(
      "removes every document of it but the slug reservations, and detaches it from its hosts",
      "it counts the documents by reading the SQLite file",
    ),
    async () => {
      const { owner } = world;
      for (let i = 0; i < 3; i++) await newEvent(t, owner, doomed.id, { name: `One-off ${i}`, date: "2026-11-25" });
      const series = await newEvent(t, owner, doomed.id, {
        name: "Daily",
        recur: { type: "daily" },
        start_time: "09:00",
        alarms: [10],
      });
      const moved = { date: "2026-11-28" };
      expect(
        (
          await patch(t, `/v1/calendars/${doomed.id}/events/${series.id}/occurrences/2026-11-26`, owner.auth).send(
            moved,
          )
        ).status,
      ).toBe(200);
      await newView(t, owner, doomed.id);
      const sub = await newCalendar(t, owner, { name: "Sub" });
      await attachLayer(t, owner, doomed.id, sub.id, "sub");
      await post(t, `/v1/calendars/${doomed.id}/access-requests`, world.stranger.auth).send({ role: "writer" });

      const before = documentsNaming(doomed.id);
      for (const held of ["events", "exceptions", "grants", "views", "layers", "shards/*/changes", "access_requests"]) {
        expect(before[`calendars/*/${held}`], held).toBeGreaterThan(0);
      }
      expect(before["alarm_queue"]).toBe(1);
      expect((await remove()).status).toBe(200);

      const result = await purgePass(t.deps);
      expect(result).toMatchObject({ purged: 1, more: false });
      const after = documentsNaming(doomed.id);
      // What stays: its slug, its view's slug, and answers kept for Idempotency-Key replays (24 h).
      expect(Object.keys(after).sort()).toEqual(["idempotency", "slugs", "view_slugs"]);
      expect(after.slugs).toBe(1);
      expect(after.view_slugs).toBe(1);
      console.log(`documents naming the calendar: before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`);
      // Its layer calendar stays, with no link back to the deleted host.
      expect(await t.deps.store.get(paths.calendar(sub.id))).not.toBeNull();
      expect(await t.deps.store.query(paths.hosts(sub.id))).toEqual([]);
    },
  );

  it.skipIf(onFirestore)(
    sqliteOnly(
      "takes it from the webhooks that followed it: their stream goes, `calendars` lists the others",
      "it counts the documents by reading the SQLite file",
    ),
    async () => {
      const { owner } = world;
      const other = await newCalendar(t, owner, { name: "Kept" });
      const created = await post(t, "/v1/webhooks", owner.auth).send({
        url: "https://hooks.example.com/almanac",
        calendars: [doomed.id, other.id],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const only = await post(t, "/v1/webhooks", owner.auth).send({
        url: "https://hooks.example.com/only",
        calendars: [doomed.id],
      });
      const [both, lone] = [created.body.webhook.id as string, only.body.webhook.id as string];
      expect(await t.deps.store.get(paths.webhookStream(both, doomed.id))).not.toBeNull();
      expect((await remove()).status).toBe(200);

      expect(await purgePass(t.deps)).toMatchObject({ purged: 1, more: false });
      expect(await t.deps.store.get(paths.webhookStream(both, doomed.id))).toBeNull();
      expect(await t.deps.store.get(paths.webhookStream(lone, doomed.id))).toBeNull();
      expect(await t.deps.store.get(paths.webhookStream(both, other.id))).not.toBeNull();
      const kept = await get(t, `/v1/webhooks/${both}`, owner.auth);
      expect(kept.body).toMatchObject({ calendars: [other.id], enabled: true, disabled_reason: null });
      // Left with no calendar, a webhook is kept, disabled, and says why.
      const emptied = await get(t, `/v1/webhooks/${lone}`, owner.auth);
      expect(emptied.body).toMatchObject({ calendars: [], enabled: false, disabled_reason: NO_CALENDARS_LEFT });
      expect(documentsNaming(doomed.id)).not.toHaveProperty("webhooks");
    },
  );

  it("detaches it from the calendars it was a layer of, as a detach would", async () => {
    const { owner } = world;
    const host = await newCalendar(t, owner, { name: "Host" });
    await attachLayer(t, owner, host.id, doomed.id, "doomed");
    const { cursor } = (await get(t, `/v1/calendars/${host.id}/changes`, owner.auth)).body;
    expect((await remove()).status).toBe(200);
    await purgePass(t.deps);
    expect(await t.deps.store.query(paths.layers(host.id))).toEqual([]);
    const feed = await get(t, `/v1/calendars/${host.id}/changes?cursor=${cursor}`, owner.auth);
    expect(feed.body.changes.map((c: { type: string }) => c.type)).toEqual(["layer.detached"]);
  });

  it("purges a layer and its host deleted together, whichever goes first", async () => {
    const { owner } = world;
    const host = await newCalendar(t, owner, { name: "Host" });
    await attachLayer(t, owner, host.id, doomed.id, "doomed");
    expect((await del(t, `/v1/calendars/${host.id}`, owner.auth)).status).toBe(200);
    expect((await remove()).status).toBe(200);
    expect(await purgePass(t.deps)).toMatchObject({ purged: 2, more: false });
    expect(await t.deps.store.query(paths.hosts(doomed.id))).toEqual([]);
    expect(await t.deps.store.query(paths.layers(host.id))).toEqual([]);
  });

  it("deletes in transactions of bounded size, and a pass cut short is taken up by the next", async () => {
    const { owner } = world;
    for (let i = 0; i < PURGE_BATCH + 50; i++) await newEvent(t, owner, doomed.id, { name: `Event ${i}` });
    expect((await remove()).status).toBe(200);

    let largest = 0;
    const deps = {
      ...t.deps,
      store: countingLargestTransaction(t.deps.store, (writes) => (largest = Math.max(largest, writes))),
    };

    const first = await purgePass(deps, budgetOf(60_000), 2);
    expect(first.more).toBe(true);
    expect(await t.deps.store.get(paths.calendarPurge(doomed.id))).not.toBeNull();
    let passes = 1;
    while ((await purgePass(deps, budgetOf(60_000), 2)).more) passes += 1;
    expect(passes).toBeGreaterThan(1);
    expect(largest).toBeLessThanOrEqual(2 * PURGE_BATCH);
    expect(await t.deps.store.query(paths.events(doomed.id))).toEqual([]);
    expect(await t.deps.store.get(paths.calendarPurge(doomed.id))).toBeNull();
  });

  it("runs by itself on the local driver, as npm start runs it", async () => {
    await newEvent(t, world.owner, doomed.id, { name: "Soon gone" });
    expect((await remove()).status).toBe(200);
    const job = startJob(purgeJob, t.deps);
    try {
      await expect.poll(async () => t.deps.store.get(paths.calendarPurge(doomed.id)), { timeout: 5_000 }).toBeNull();
      expect(await t.deps.store.query(paths.events(doomed.id))).toEqual([]);
      expect(t.logs).toContainEqual(expect.stringMatching(/^purge: 1 deleted calendars purged \(\d+ documents\)$/));
    } finally {
      await job.stop();
    }
  });

  it("runs on the scheduled driver as the deployed `purges` function does, and stops once nothing is queued", async () => {
    await newEvent(t, world.owner, doomed.id, { name: "Soon gone" });
    expect((await remove()).status).toBe(200);
    const started = performance.now();
    expect(await runWithin(purgeJob, t.deps, 45_000)).toEqual({ passes: 1, done: 1 });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await t.deps.store.get(paths.calendarPurge(doomed.id))).toBeNull();
  });

  it("a pass whose time is spent leaves the rest for the next, and says so", async () => {
    for (let i = 0; i < 5; i++) await newEvent(t, world.owner, doomed.id, { name: `Event ${i}` });
    expect((await remove()).status).toBe(200);
    const spent = await purgePass(t.deps, budgetOf(0));
    expect(spent).toMatchObject({ purged: 0, more: true });
    expect(await t.deps.store.get(paths.calendarPurge(doomed.id))).not.toBeNull();
    expect(await purgePass(t.deps)).toMatchObject({ purged: 1, more: false });
  });
});

/** The store, reporting each transaction's number of writes when it commits. */
function countingLargestTransaction(store: Store, report: (writes: number) => void): Store {
  const WRITES = new Set<PropertyKey>(["create", "set", "update", "delete"]);
  const runTransaction: Store["runTransaction"] = (fn) =>
    store.runTransaction(async (tx) => {
      let writes = 0;
      const counted = new Proxy(tx, {
        get: (target, key) => {
          const method = Reflect.get(target, key) as (...args: unknown[]) => unknown;
          if (!WRITES.has(key)) return method.bind(target);
          return (...args: unknown[]) => {
            writes += 1;
            return method.apply(target, args);
          };
        },
      });
      const result = await fn(counted);
      report(writes);
      return result;
    });
  return new Proxy(store, {
    get: (target, key) =>
      key === "runTransaction"
        ? runTransaction
        : (Reflect.get(target, key) as (...args: unknown[]) => unknown).bind(target),
  });
}
