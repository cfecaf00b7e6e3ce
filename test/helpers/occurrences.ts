/**
 * The whole expansion of the sources in [from, to], in order: the reference the pager
 * (pageOccurrences) and the pages' budgeted draw are tested against. It is the budgeted draw
 * with no budget (each event's occurrences listed, then sorted), which shares nothing with the
 * pager's merge of per-event streams, with the instants written as the API writes them.
 */
import { instantFormatter, type InstantFormatter } from "../../functions/src/domain/events/instants.js";
import { addDays } from "../../functions/src/domain/recurrence/index.js";
import {
  budgetedOccurrences,
  type LoadedSource,
  type TimedOccurrence,
} from "../../functions/src/domain/queries/occurrences.js";

export function expandOccurrences(sources: LoadedSource[], from: string, to: string): TimedOccurrence[] {
  if (from > to) return [];
  const zoneOf = new Map(sources.map((s) => [s.layer, s.calendar.timezone]));
  const formatters = new Map<string, InstantFormatter>();
  const format = (layer: string, ms: number): string => {
    const zone = zoneOf.get(layer)!;
    let f = formatters.get(zone);
    // Occurrences spanning days start up to 365 days before the range and end up to 366 after it.
    if (!f) formatters.set(zone, (f = instantFormatter(zone, addDays(from, -366), addDays(to, 367))));
    return f.at(ms);
  };
  return budgetedOccurrences(sources, from, to, Infinity).occurrences.map((o) => ({
    event_id: o.event.id,
    layer: o.layer,
    date: o.date,
    end_date: o.end_date,
    days: o.days,
    original_date: o.original_date,
    start_time: o.start_time,
    end_time: o.end_time,
    name: o.name,
    category: o.category,
    start: o.start === null ? null : format(o.layer, o.start),
    end: o.end === null ? null : format(o.layer, o.end),
    alarms: o.alarms,
  }));
}
