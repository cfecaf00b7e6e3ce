/**
 * A page whose period shows nothing says where the nearest occurrences are: the first after
 * the period and the last before it, within ELSEWHERE_DAYS each way, with the page's filter
 * (a view's categories, layers and dates). Read only for an empty period; a calendar too large
 * to look through within the read budget gets no hint rather than a refusal.
 */
import type { Deps } from "../domain/deps.js";
import { DomainError } from "../domain/errors.js";
import { loadOccurring } from "../domain/queries/occurring.js";
import type { EventSource } from "../domain/queries/sources.js";
import { viewRange } from "../domain/queries/views.js";
import { addDays } from "../domain/recurrence/index.js";
import type { ViewFilter } from "../domain/types.js";
import { drawnOccurrences, everyEvent } from "./drawn.js";
import type { Elsewhere, NearbyOccurrence } from "./model.js";

/** How far the hint looks, each way: a year. */
export const ELSEWHERE_DAYS = 366;

export async function nearestElsewhere(
  deps: Deps,
  sources: EventSource[],
  zone: string,
  filter: ViewFilter | null,
  period: { from: string; to: string },
): Promise<Elsewhere | null> {
  const clip = (from: string, to: string) => (filter ? viewRange(filter, from, to) : { from, to });
  try {
    const [next, previous] = await Promise.all([
      nearest(deps, sources, zone, filter, clip(addDays(period.to, 1), addDays(period.to, ELSEWHERE_DAYS)), "first"),
      nearest(
        deps,
        sources,
        zone,
        filter,
        clip(addDays(period.from, -ELSEWHERE_DAYS), addDays(period.from, -1)),
        "last",
      ),
    ]);
    return next || previous ? { next, previous } : null;
  } catch (err) {
    if (err instanceof DomainError && err.code === "too_expensive") return null;
    throw err;
  }
}

async function nearest(
  deps: Deps,
  sources: EventSource[],
  zone: string,
  filter: ViewFilter | null,
  range: { from: string; to: string } | null,
  which: "first" | "last",
): Promise<NearbyOccurrence | null> {
  if (!range) return null;
  const loaded = await loadOccurring(deps, sources, range);
  const { occurrences } = drawnOccurrences(loaded, zone, range, everyEvent, filter);
  if (occurrences.length === 0) return null;
  const dates = occurrences.map((o) => o.date).sort();
  const date = which === "first" ? dates[0] : dates[dates.length - 1];
  const chosen = occurrences.find((o) => o.date === date)!;
  return { date, name: chosen.name };
}
