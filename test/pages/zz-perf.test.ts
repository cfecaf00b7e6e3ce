import { it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import { loadCalendarPage } from "../../functions/src/pages/load.js";
import { renderPage } from "../../functions/src/pages/layout.js";
import { resolveCalendarSlug } from "../../functions/src/domain/queries/calendars.js";
import { createTestApp, mintAgent } from "../helpers/app.js";
import { createCalendar } from "./site.js";
import type { EventRecord } from "../../functions/src/domain/types.js";
it("perf", async () => {
  const t = createTestApp();
  const a = await mintAgent(t, "P");
  const cal = await createCalendar(t, a.auth, { name: "Perf", slug: "perf-cal", visibility: "public", timezone: "Europe/Paris" });
  await t.deps.store.runTransaction(async (tx) => {
    for (let i = 0; i < 500; i++) {
      const recurring = i % 3 === 0;
      const day = 1 + (i % 28);
      const ev: EventRecord = {
        id: `evt_${i}`, calendar_id: cal.id, kind: recurring ? "recurring" : "one-off", name: `Event number ${i} & co`,
        date: recurring ? null : `2026-${String(1 + (i % 12)).padStart(2, "0")}-${String(day).padStart(2, "0")}`,
        recur: recurring ? (i % 2 ? { type: "weekly", day: 1 + (i % 7), interval: 1, starts: "2026-01-01" } : { type: "monthly", day, interval: 1, starts: "2026-01-01" }) : null,
        start_time: i % 4 ? `${String(8 + (i % 10)).padStart(2, "0")}:00` : null, end_time: i % 4 ? `${String(9 + (i % 10)).padStart(2, "0")}:30` : null,
        category: `cat${i % 6}`, notes: i % 5 ? null : "Some **notes**", art: i % 7 ? null : "🚀",
        created_by: { id: a.agentId, name: "P" }, created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z",
      };
      tx.set(paths.event(cal.id, ev.id), { ...ev });
    }
  });
  {
    const { loadSourceEvents, expandOccurrences } = await import("../../functions/src/domain/queries/events.js");
    const { eventSources } = await import("../../functions/src/domain/queries/sources.js");
    const calRec = (await resolveCalendarSlug(t.deps, "perf-cal"))!.calendar;
    let a1 = 0, a2 = 0, a3 = 0;
    for (let i = 0; i < 200; i++) {
      const s0 = performance.now();
      const sources = await eventSources(t.deps, calRec, null);
      const s1 = performance.now();
      const loaded = await loadSourceEvents(t.deps, sources);
      const s2 = performance.now();
      expandOccurrences(loaded, "2026-10-26", "2026-12-06");
      const s3 = performance.now();
      a1 += s1 - s0; a2 += s2 - s1; a3 += s3 - s2;
    }
    const { expandRecurrence } = await import("../../functions/src/domain/recurrence/index.js");
    const { instantFormatter } = await import("../../functions/src/domain/events/instants.js");
    let b1 = 0, b2 = 0;
    const loaded = await loadSourceEvents(t.deps, await eventSources(t.deps, calRec, null));
    for (let i = 0; i < 200; i++) {
      const s0 = performance.now();
      let c = 0;
      for (const e of loaded[0].events) if (e.recur) c += expandRecurrence(e.recur, "2026-01-01", "2026-10-26", "2026-12-06").length;
      const s1 = performance.now();
      const f = instantFormatter("Europe/Paris", "2026-10-26", "2026-12-06");
      const s2 = performance.now();
      b1 += s1 - s0; b2 += s2 - s1;
    }
    console.log("expandRecurrence only", (b1 / 200).toFixed(3), "formatter setup", (b2 / 200).toFixed(3));
    console.log("load ms sources", (a1 / 200).toFixed(3), "events", (a2 / 200).toFixed(3), "expand", (a3 / 200).toFixed(3));
  }
  for (const view of ["month", "week", "schedule", "timeline"]) {
    let bytes = 0;
    const n = 300;
    for (let i = 0; i < 30; i++) renderPage(await loadCalendarPage(t.deps, (await resolveCalendarSlug(t.deps, "perf-cal"))!.calendar, { view }));
    let load = 0, render = 0;
    for (let i = 0; i < n; i++) {
      const s = performance.now();
      const found = await resolveCalendarSlug(t.deps, "perf-cal");
      const model = await loadCalendarPage(t.deps, found!.calendar, { view, date: "2026-11-15" });
      const m = performance.now();
      bytes = renderPage(model).length;
      render += performance.now() - m; load += m - s;
    }
    console.log(view, "load ms", (load / n).toFixed(3), "render ms", (render / n).toFixed(3), "bytes", bytes, "pages/s", Math.round(1000 / ((load + render) / n)));
  }
  await t.close();
}, 120000);
