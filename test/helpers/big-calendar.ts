/**
 * Big calendars written straight through the storage port (thousands of events in one
 * transaction), for the bounded-cost tests of occurrences, pages and feeds: the API would
 * take minutes to create them one POST at a time.
 */
import type { Deps } from "../../functions/src/domain/deps.js";
import { newId } from "../../functions/src/domain/ids.js";
import { paths } from "../../functions/src/domain/paths.js";
import { storedEvent } from "../../functions/src/domain/events/stored.js";
import type { EventRecord } from "../../functions/src/domain/records.js";
import type { Recur } from "../../functions/src/domain/types.js";
import { makeEventRecord } from "./factories.js";
import { seedLayer } from "./store.js";

export type EventSeed = Partial<EventRecord> & { name: string };

/**
 * Events written per transaction: the Cloud Firestore emulator's commit time grows faster than
 * the number of writes (365 events in one transaction took over a minute, in batches of 50 about
 * a second).
 */
const SEED_BATCH = 50;

/** Writes events into a calendar, SEED_BATCH a transaction; kind follows from date/recur as the API sets it. */
export async function seedEvents(
  deps: Pick<Deps, "store" | "clock">,
  calendarId: string,
  seeds: EventSeed[],
): Promise<EventRecord[]> {
  const now = deps.clock().toISOString();
  const records = seeds.map((seed) =>
    makeEventRecord({
      id: newId("evt"),
      calendar_id: calendarId,
      created_by: { id: "agt_seed", name: "Seed" },
      created_at: now,
      updated_at: now,
      ...seed,
    }),
  );
  const calendar = await deps.store.get(paths.calendar(calendarId));
  const timezone = calendar?.data.timezone ?? "UTC";
  for (let i = 0; i < records.length; i += SEED_BATCH) {
    await deps.store.runTransaction(async (tx) => {
      // As the event commands write them, with the sort key and span that lists and ranges read by.
      for (const record of records.slice(i, i + SEED_BATCH))
        tx.set(paths.event(calendarId, record.id), storedEvent(record, { timezone }));
    });
  }
  return records;
}

const pad = (n: number): string => String(n).padStart(2, "0");

/** `count` daily series from `starts`, at times spread over the day (every seventh untimed), a few created at the same instant. */
export function dailySeries(count: number, prefix: string, starts = "2026-01-01"): EventSeed[] {
  return Array.from({ length: count }, (_, i) => {
    const timed = i % 7 !== 0;
    const recur: Recur = { type: "daily", starts };
    return {
      name: `${prefix} ${i}`,
      recur,
      start_time: timed ? `${pad(i % 24)}:${pad((i * 7) % 60)}` : null,
      end_time: timed && i % 2 === 0 ? `${pad((i + 1) % 24)}:${pad((i * 7) % 60)}` : null,
      category: `c${i % 5}`,
      // Ties in creation are broken by id, then layer.
      created_at: `2025-12-01T00:00:${pad(i % 13)}.000Z`,
    };
  });
}

/**
 * The reproduction of issue 9: a host calendar with `layers` attached calendars, each holding
 * `seriesPerLayer` daily series. Layers are public, so everything is published and readable.
 */
export async function seedLayeredHost(
  deps: Pick<Deps, "store" | "clock">,
  createCalendar: (name: string) => Promise<{ id: string }>,
  hostId: string,
  layers: number,
  seriesPerLayer: number,
): Promise<string[]> {
  const ids: string[] = [];
  for (let l = 0; l < layers; l++) {
    const calendar = await createCalendar(`Layer ${l}`);
    await seedEvents(deps, calendar.id, dailySeries(seriesPerLayer, `L${l}`));
    await seedLayer(deps, hostId, calendar.id, `l${l}`);
    ids.push(calendar.id);
  }
  return ids;
}
