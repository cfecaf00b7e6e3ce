/**
 * Reads of the events that can occur in a date range, and nothing else: the work of an
 * occurrences, free/busy or page request grows with what its range holds, not with what the
 * calendars hold. Each event stores the span it can occur in (`date` for a one-off,
 * `series_end` for a series, `span_end` for what covers several dates, events/stored.ts), so
 * per source the range is six single-field range queries (no composite index):
 *   one-off events   date in [from, to]
 *                    span_end >= from, then date <= to in memory (begun before, still running)
 *   series           series_end >= from (its last day covered), then starts <= to in memory
 *   exceptions       original_date in [from, to] (what the range's own dates became)
 *                    date in [from, to] (what moved into the range, from anywhere)
 *                    span_end >= from, then a date <= to in memory (spanning days, begun before)
 * and the series of an exception moved in from outside its span, by id. Only what spans
 * several dates carries `span_end`, so those two queries read such events still running (as
 * the series query reads running series), never the one-day events before the range. Notes,
 * which no occurrence shows, are not read; `readNotes` reads them for what a page draws.
 *
 * Past READ_BUDGET records in all the read stops and the request is `too_expensive`: sources
 * are read one after another, each query asking for at most what is left of the budget, so a
 * refusal costs at most a few budgets of small records.
 */
import type { Deps } from "../deps.js";
import { errors } from "../errors.js";
import { paths } from "../paths.js";
import { occursBetween, recurError } from "../recurrence/index.js";
import type { CollectionRef, QueryOf, StoredDoc } from "../../storage/port.js";
import type { EventRecord, ExceptionRecord } from "../records.js";
import { defaultStartsOf, KIND_GROUP } from "../events/stored.js";
import { coversRange, daysOf, earliestStartCovering, MAX_EVENT_DAYS } from "../events/span.js";
import type { LoadedSource } from "./occurrences.js";
import type { EventSource } from "./sources.js";
import { eachInTurn } from "../yield.js";

/** Most events and exceptions one request may read, all sources together. */
export const READ_BUDGET = 25_000;

/** Inclusive dates, each in the zone of the event's own calendar. */
export interface DateRange {
  from: string;
  to: string;
}

/** What an occurrence or a page shows of an event: everything but `notes` (read as null). */
export const EVENT_FIELDS = [
  "id",
  "calendar_id",
  "kind",
  "name",
  "date",
  "recur",
  "start_time",
  "end_time",
  "days",
  "category",
  "art",
  "alarms",
  "created_by",
  "created_at",
  "updated_at",
  "sequence",
] as const satisfies ReadonlyArray<keyof EventRecord>;

const EXCEPTION_FIELDS = [
  "id",
  "calendar_id",
  "event_id",
  "original_date",
  "cancelled",
  "date",
  "start_time",
  "end_time",
  "days",
  "name",
  "category",
  "alarms",
  "sequence",
  "created_at",
  "updated_at",
] as const satisfies ReadonlyArray<keyof ExceptionRecord>;

/** Most records one request may read: the deployment's setting, else READ_BUDGET. */
export const readBudgetOf = (deps: Pick<Deps, "readBudget">): number => deps.readBudget ?? READ_BUDGET;

/** A query whose answer may hold at most the read budget; a fuller one is `too_expensive`. */
export async function queryWithinBudget<T>(
  deps: Deps,
  collection: CollectionRef<T>,
  spec: QueryOf<NoInfer<T>> = {},
): Promise<StoredDoc<T>[]> {
  const budget = readBudgetOf(deps);
  const docs = await deps.store.query(collection, { ...spec, limit: budget + 1 });
  if (docs.length > budget) throw errors.tooExpensive(budget);
  return docs;
}

/** Both ends of an inclusive range on one field. */
const between = <F extends string>(field: F, from: string, to: string) =>
  [
    [field, ">=", from],
    [field, "<=", to],
  ] as const;

const withoutNotes = (e: EventRecord): EventRecord => ({ ...e, notes: null });
const exceptionWithoutNotes = (e: ExceptionRecord): ExceptionRecord => ({ ...e, notes: null });

/** Counts the records read against the budget and says how many the next query may ask for. */
class ReadBudget {
  private used = 0;
  constructor(private readonly budget: number) {}

  /** One more than what is left: a query that fills it proves the budget is exceeded. */
  get limit(): number {
    return this.budget - this.used + 1;
  }

  spend(count: number): void {
    this.used += count;
    if (this.used > this.budget) throw errors.tooExpensive(this.budget);
  }
}

/**
 * The sources' one-off and recurring events that can occur in `range` (someday events never
 * do), with the exceptions of their dates in it: everything occurrences.ts needs to expand the
 * range exactly. Notes read as null.
 */
export async function loadOccurring(
  deps: Deps,
  sources: readonly EventSource[],
  range: DateRange,
): Promise<LoadedSource[]> {
  const spent = new ReadBudget(readBudgetOf(deps));
  return eachInTurn(sources.map((source) => () => loadSource(deps, source, range, spent)));
}

async function loadSource(deps: Deps, source: EventSource, range: DateRange, spent: ReadBudget) {
  const { calendar } = source;
  if (!calendar.event_spans) return loadWhole(deps, source, range, spent);
  const { from, to } = range;
  const limit = spent.limit;
  const events = paths.events(calendar.id);
  const exceptions = paths.exceptions(calendar.id);
  const [oneOffs, running, series, ofDates, movedIn, spanning] = await Promise.all([
    deps.store.query(events, { where: between("date", from, to), select: EVENT_FIELDS, limit }),
    deps.store.query(events, { where: [["span_end", ">=", from]], select: EVENT_FIELDS, limit }),
    deps.store.query(events, { where: [["series_end", ">=", from]], select: EVENT_FIELDS, limit }),
    deps.store.query(exceptions, { where: between("original_date", from, to), select: EXCEPTION_FIELDS, limit }),
    deps.store.query(exceptions, { where: between("date", from, to), select: EXCEPTION_FIELDS, limit }),
    deps.store.query(exceptions, { where: [["span_end", ">=", from]], select: EXCEPTION_FIELDS, limit }),
  ]);
  spent.spend(oneOffs.length + running.length + series.length + ofDates.length + movedIn.length + spanning.length);
  const eventsById = new Map<string, EventRecord>();
  for (const d of oneOffs) eventsById.set(d.id, d.data);
  for (const d of running) if (d.data.date !== null && d.data.date < from) eventsById.set(d.id, d.data);
  for (const d of series) if (startsBy(d.data, source, to)) eventsById.set(d.id, d.data);
  const kept = [...eventsById.values()];
  const byId = new Map<string, ExceptionRecord>();
  for (const d of [...ofDates, ...movedIn]) byId.set(d.id, d.data);
  for (const d of spanning) if (d.data.original_date <= to || d.data.date <= to) byId.set(d.id, d.data);
  // A series can be read by its span and still miss an occurrence moved in from far outside it.
  const have = new Set(kept.map((e) => e.id));
  const missing = [...new Set([...byId.values()].map((x) => x.event_id))].filter((id) => !have.has(id));
  if (missing.length > 0) {
    spent.spend(missing.length);
    const found = await deps.store.getAll(missing.map((id) => paths.event(calendar.id, id)));
    for (const doc of found) if (doc) kept.push(doc.data);
  }
  return {
    ...source,
    events: kept.map(withoutNotes),
    exceptions: [...byId.values()].map(exceptionWithoutNotes),
  };
}

/** A series that has begun by `to` (and is valid: every write is validated, odd records are skipped). */
function startsBy(event: EventRecord, source: EventSource, to: string): boolean {
  const recur = event.recur;
  if (event.kind !== "recurring" || !recur || recurError(recur) !== null) return false;
  return (recur.starts ?? defaultStartsOf(event, source.calendar)) <= to;
}

/**
 * A calendar from before stored spans: its events and exceptions read whole (within the
 * budget all the same), then cut to the range in memory.
 */
async function loadWhole(deps: Deps, source: EventSource, range: DateRange, spent: ReadBudget) {
  const { calendar } = source;
  const [events, exceptions] = await Promise.all([
    deps.store.query(paths.events(calendar.id), { select: EVENT_FIELDS, limit: spent.limit }),
    deps.store.query(paths.exceptions(calendar.id), { select: EXCEPTION_FIELDS, limit: spent.limit }),
  ]);
  spent.spend(events.length + exceptions.length);
  const { from, to } = range;
  const occurs = (e: EventRecord) =>
    e.kind === "one-off"
      ? coversRange(e.date!, daysOf(e), from, to)
      : e.kind === "recurring" &&
        e.recur !== null &&
        recurError(e.recur) === null &&
        occursBetween(
          e.recur,
          e.recur.starts ?? defaultStartsOf(e, calendar),
          earliestStartCovering(from, daysOf(e)),
          to,
        );
  // The series' days are not at hand here: an original date up to the longest span back may matter.
  const inRange = (x: ExceptionRecord) =>
    coversRange(x.original_date, MAX_EVENT_DAYS, from, to) || coversRange(x.date, daysOf(x), from, to);
  const kept = exceptions.map((d) => d.data).filter(inRange);
  const excepted = new Set(kept.map((x) => x.event_id));
  return {
    ...source,
    events: events
      .map((d) => d.data)
      .filter((e) => occurs(e) || excepted.has(e.id))
      .map(withoutNotes),
    exceptions: kept.map(exceptionWithoutNotes),
  };
}

/**
 * The notes of the events and exceptions given, read by id: a page reads them for what it
 * draws only. Keys are `{calendarId}/{eventId}` and `{calendarId}/{exceptionId}`.
 */
export async function readNotes(
  deps: Deps,
  wanted: { events: readonly EventRecord[]; exceptions: readonly ExceptionRecord[] },
): Promise<Map<string, string | null>> {
  const [events, exceptions] = await Promise.all([
    deps.store.getAll(wanted.events.map((e) => paths.event(e.calendar_id, e.id))),
    deps.store.getAll(wanted.exceptions.map((x) => paths.exception(x.calendar_id, x.event_id, x.original_date))),
  ]);
  const notes = new Map<string, string | null>();
  for (const doc of [...events, ...exceptions]) {
    if (doc) notes.set(`${doc.data.calendar_id}/${doc.data.id}`, doc.data.notes);
  }
  return notes;
}

/**
 * The oldest someday events of each source, at most `limit` a source, as the events list
 * orders them (their sort keys start with the someday group's digit, then the creation time).
 */
export async function loadSomeday(
  deps: Deps,
  sources: readonly EventSource[],
  limit: number,
): Promise<Array<{ layer: string; events: EventRecord[] }>> {
  const somedayGroup = `${KIND_GROUP.someday} `;
  return eachInTurn(
    sources.map(({ layer, calendar }) => async () => {
      const docs = calendar.event_sort_keys
        ? await deps.store.query(paths.events(calendar.id), {
            where: [["sort_key", ">=", somedayGroup]],
            orderBy: [["sort_key", "asc"]],
            select: EVENT_FIELDS,
            limit,
          })
        : (
            await deps.store.query(paths.events(calendar.id), {
              select: EVENT_FIELDS,
              limit: readBudgetOf(deps),
            })
          ).filter((d) => d.data.kind === "someday");
      return { layer, events: docs.map((d) => withoutNotes(d.data)).slice(0, limit) };
    }),
  );
}
