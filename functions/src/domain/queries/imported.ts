/**
 * Decides what storing an import plan writes (domain/import/batches.ts), outside any
 * transaction: the calendar's imported events are matched by UID (`ical_uid`), each event of
 * the text is checked as a create would check it, and compared with what is stored, so a second
 * import of the same text finds everything unchanged and writes nothing.
 */
import type { Deps } from "../deps.js";
import { DomainError } from "../errors.js";
import { changedOccurrence } from "../commands/exceptions.js";
import { eventFieldsFromCreate, type EventFields } from "../events/rules.js";
import { isPlannedDate } from "../events/planned.js";
import { daysOf } from "../events/span.js";
import {
  BATCH_WRITES,
  writeCost,
  type ImportBatch,
  type ImportWork,
  type ImportWrite,
  type ResolvedEvent,
} from "../import/batches.js";
import type { ImportPlan, ImportedEvent, SkippedComponent } from "../import/plan.js";
import { paths } from "../paths.js";
import { quotaLimits } from "../quotas.js";
import { todayIn } from "../recurrence/index.js";
import { yieldToOthers } from "../yield.js";
import type { CalendarRecord, EventRecord, ExceptionRecord } from "../records.js";

const PAGE = 1_000;
/** Events checked between two turns of the event loop. */
const YIELD_EVERY = 50;

export async function planImportWrites(
  deps: Pick<Deps, "store" | "config" | "clock">,
  calendar: CalendarRecord,
  plan: ImportPlan,
  options: { prune: boolean },
): Promise<ImportWork> {
  const skipped: SkippedComponent[] = [...plan.skipped];
  const stored = await importedEvents(deps, calendar.id);
  const exceptions = await exceptionsByEvent(deps, calendar.id, stored);
  const writes: ImportWrite[] = [];
  let unchanged = 0;
  const seen = new Set<string>();
  for (const [i, item] of plan.events.entries()) {
    // Checking thousands of events takes a while: other requests are answered in between.
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await yieldToOthers();
    const event = resolve(deps, calendar, item, skipped);
    if (!event) continue;
    seen.add(item.uid);
    const current = stored.get(item.uid);
    if (!current) writes.push({ kind: "create", event });
    else if (matches(current, exceptions.get(current.id) ?? [], event, calendar)) unchanged++;
    else writes.push({ kind: "update", eventId: current.id, event });
  }
  if (options.prune) {
    for (const [uid, event] of stored) {
      if (!seen.has(uid)) {
        writes.push({ kind: "delete", eventId: event.id, exceptionCount: exceptions.get(event.id)?.length ?? 0 });
      }
    }
  }
  return { batches: inBatches(writes), unchanged, skipped };
}

/** The calendar's imported events by UID (the first of two that share one, should a race have stored both). */
async function importedEvents(deps: Pick<Deps, "store">, calendarId: string): Promise<Map<string, EventRecord>> {
  const byUid = new Map<string, EventRecord>();
  let after: string | undefined;
  for (;;) {
    const page = await deps.store.query(paths.events(calendarId), {
      where: [["ical_uid", ">=", ""]],
      orderBy: [["ical_uid", "asc"]],
      ...(after === undefined ? {} : { startAfter: after }),
      limit: PAGE,
    });
    for (const doc of page) if (!byUid.has(doc.data.ical_uid!)) byUid.set(doc.data.ical_uid!, doc.data);
    if (page.length < PAGE) return byUid;
    after = page[page.length - 1].data.ical_uid;
  }
}

/** The exceptions of the imported series, read only when there are any. */
async function exceptionsByEvent(
  deps: Pick<Deps, "store">,
  calendarId: string,
  stored: Map<string, EventRecord>,
): Promise<Map<string, ExceptionRecord[]>> {
  const series = [...stored.values()].filter((e) => e.kind === "recurring");
  const byEvent = new Map<string, ExceptionRecord[]>();
  for (let at = 0; at < series.length; at += YIELD_EVERY) {
    await Promise.all(
      series.slice(at, at + YIELD_EVERY).map(async (event) => {
        const docs = await deps.store.query(paths.exceptions(calendarId), { where: [["event_id", "==", event.id]] });
        if (docs.length > 0)
          byEvent.set(
            event.id,
            docs.map((d) => d.data),
          );
      }),
    );
    await yieldToOthers();
  }
  return byEvent;
}

/**
 * The event checked as a create checks it, and each exception as a PATCH of its occurrence
 * would; what fails is skipped with the check's message, and an exception beyond the quota too.
 */
function resolve(
  deps: Pick<Deps, "config" | "clock">,
  calendar: CalendarRecord,
  item: ImportedEvent,
  skipped: SkippedComponent[],
): ResolvedEvent | null {
  let fields: EventFields;
  try {
    fields = eventFieldsFromCreate(item.event, todayIn(calendar.timezone, deps.clock()));
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    skipped.push({ uid: item.uid, reason: err.message });
    return null;
  }
  const series = asRecord(fields, calendar, item.uid);
  const limit = quotaLimits(deps).exceptions_per_event;
  const exceptions = new Map<string, ImportedEvent["exceptions"][number]["change"]>();
  for (const { original_date: date, change } of item.exceptions) {
    const refusal = exceptionRefusal(series, calendar, date, change, exceptions.size, limit);
    if (refusal) skipped.push({ uid: item.uid, reason: `the occurrence of ${date}: ${refusal}` });
    else exceptions.set(date, change);
  }
  return { uid: item.uid, fields, exceptions };
}

function exceptionRefusal(
  series: EventRecord,
  calendar: CalendarRecord,
  date: string,
  change: ImportedEvent["exceptions"][number]["change"],
  kept: number,
  limit: number,
): string | null {
  if (series.kind !== "recurring" || !isPlannedDate(series, calendar, date)) return "not a date of its series";
  if (kept >= limit) return `more than ${limit} changed occurrences in one series`;
  try {
    changedOccurrence(series, calendar.id, date, null, change, series.created_at);
    return null;
  } catch (err) {
    if (err instanceof DomainError) return err.message;
    throw err;
  }
}

/** The resolved fields as an event record, for the checks and comparisons made on records. */
export const asRecord = (fields: EventFields, calendar: CalendarRecord, uid: string): EventRecord => ({
  id: "evt_import",
  calendar_id: calendar.id,
  ...fields,
  ical_uid: uid,
  created_by: { id: "", name: "" },
  created_at: "",
  updated_at: "",
});

const FIELDS = ["kind", "name", "date", "recur", "start_time", "end_time", "category", "notes", "art"] as const;
const OCCURRENCE_FIELDS = ["cancelled", "date", "start_time", "end_time", "name", "category", "notes"] as const;

/** Whether the stored event and its exceptions are what the text says now. */
function matches(
  current: EventRecord,
  stored: readonly ExceptionRecord[],
  wanted: ResolvedEvent,
  calendar: CalendarRecord,
): boolean {
  const { fields } = wanted;
  if (FIELDS.some((f) => !sameValue(current[f], fields[f]))) return false;
  if (daysOf(current) !== fields.days || !sameValue(current.alarms ?? [], fields.alarms)) return false;
  if (stored.length !== wanted.exceptions.size) return false;
  const series = asRecord(fields, calendar, wanted.uid);
  return stored.every((e) => {
    const change = wanted.exceptions.get(e.original_date);
    if (!change) return false;
    const next = changedOccurrence(series, calendar.id, e.original_date, null, change, e.created_at);
    return (
      OCCURRENCE_FIELDS.every((f) => sameValue(e[f], next[f])) &&
      daysOf(e) === daysOf(next) &&
      sameValue(e.alarms ?? null, next.alarms ?? null)
    );
  });
}

/** Equal as values, whatever order a store gave an object's keys in. */
export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

const canonical = (value: unknown): string =>
  JSON.stringify(value ?? null, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1)))
      : v,
  );

/** The writes in order, cut into transactions of at most BATCH_WRITES documents. */
function inBatches(writes: ImportWrite[]): ImportBatch[] {
  const batches: ImportBatch[] = [];
  let current: ImportWrite[] = [];
  let cost = 0;
  for (const write of writes) {
    const next = writeCost(write);
    if (current.length > 0 && cost + next > BATCH_WRITES) {
      batches.push({ writes: current });
      current = [];
      cost = 0;
    }
    current.push(write);
    cost += next;
  }
  if (current.length > 0) batches.push({ writes: current });
  return batches;
}
