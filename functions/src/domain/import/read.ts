/**
 * Reads an iCalendar text (RFC 5545) into an import plan (plan.ts): each VEVENT an event in
 * the calendar's zone, with its exceptions, and every component or part of one that Almanac
 * cannot hold listed with the reason (docs/import.md, "What is read"). Pure: no store, no clock.
 */
import { createHash } from "node:crypto";
import ICAL from "ical.js";
import { DomainError, errors } from "../errors.js";
import { yieldToOthers } from "../yield.js";
import { readAlarms } from "./alarms.js";
import { readExdates, readOverride, type ReadContext, type Series } from "./exceptions.js";
import { readFields } from "./fields.js";
import { parseText } from "./parse.js";
import { MAX_IMPORT_EVENTS, type ImportedEvent, type ImportPlan, type SkippedComponent } from "./plan.js";
import { readRule } from "./rules.js";
import { lengthMinutes, readTiming } from "./times.js";
import { verifyLimit, verifyRule } from "./verify.js";
import { fileZonesOf } from "./zones.js";

const uidOf = (component: ICAL.Component): string | null => {
  const uid = component.getFirstPropertyValue("uid");
  return uid == null || String(uid).trim() === "" ? null : String(uid).trim();
};

/** What a VEVENT without a UID is known by: two events that differ in any of these get two UIDs. */
const IDENTIFYING = ["dtstart", "dtend", "duration", "summary", "description", "location", "rrule"];

/**
 * A UID for a VEVENT without one, from what it is: the same VEVENT gets the same UID on every
 * import. Hashed from the properties as parsed (jCal), never decoding a value that may not decode.
 */
function derivedUid(vevent: ICAL.Component): string {
  const identity = IDENTIFYING.map((name) => JSON.stringify(vevent.getFirstProperty(name)?.jCal ?? null));
  return `${createHash("sha256").update(identity.join("\n")).digest("hex").slice(0, 32)}@import.almanac`;
}

/** How long the reader works before it lets other requests run. */
const SLICE_MS = 10;

/** A pause that yields to other work when more than SLICE_MS passed since the last one. */
function pacer(): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last <= SLICE_MS) return;
    await yieldToOthers();
    last = performance.now();
  };
}

/**
 * The plan of an iCalendar text. Only a text that is no iCalendar at all, or holds too many
 * events, is refused (a DomainError); anything else a component's reading throws skips that
 * component. The reading yields to other requests every SLICE_MS.
 */
export async function readIcs(text: string, options: { timezone: string }): Promise<ImportPlan> {
  try {
    return await readText(text, options.timezone, pacer());
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw errors.invalid("invalid_request", `the iCalendar text could not be read: ${reason.slice(0, 200)}`);
  }
}

async function readText(text: string, calendarZone: string, pause: () => Promise<void>): Promise<ImportPlan> {
  const parsed = await parseText(text, pause);
  const ctx: ReadContext = { calendarZone, fileZones: fileZonesOf(parsed.zones), verifyLimit: 0 };
  const skipped: SkippedComponent[] = [...parsed.refused];
  const vevents: ICAL.Component[] = [];
  for (const component of parsed.components) {
    if (component.name === "vevent") vevents.push(component);
    else skipped.push({ uid: uidOf(component), reason: `${component.name.toUpperCase()}: only events are imported` });
  }
  if (vevents.length > MAX_IMPORT_EVENTS) {
    throw errors.invalid(
      "invalid_request",
      `the text holds ${vevents.length} events (VEVENTs, overrides included); at most ${MAX_IMPORT_EVENTS} are read: split it`,
    );
  }
  const masters = vevents.filter((v) => !v.hasProperty("recurrence-id"));
  ctx.verifyLimit = verifyLimit(masters.filter((v) => v.hasProperty("rrule")).length);
  const events: ImportedEvent[] = [];
  const series = new Map<string, Series & { event: ImportedEvent }>();
  const seen = new Set<string>();
  for (const vevent of masters) {
    const uid = uidOf(vevent) ?? derivedUid(vevent);
    const skip = (reason: string) => skipped.push({ uid, reason });
    if (seen.has(uid)) {
      skip("duplicate UID: an earlier event in the text has it; only the first is imported");
      continue;
    }
    seen.add(uid);
    const read = guarded(skip, () => readMaster(vevent, uid, ctx, skip));
    await pause();
    if (!read) continue;
    events.push(read.event);
    if (read.series) series.set(uid, { ...read.series, event: read.event });
  }
  await readOverrides(vevents, series, ctx, skipped, pause);
  return { name: parsed.name, events, skipped };
}

/**
 * What `read` gives, or null with a skipped entry when a value of the component cannot be read
 * at all (ical.js decodes a value, such as "DTSTART:2026", only when it is asked for).
 */
function guarded<T>(skip: (reason: string) => void, read: () => T): T | null {
  try {
    return read();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    skip(`it could not be read: ${reason.slice(0, 200)}`);
    return null;
  }
}

/** A VEVENT without RECURRENCE-ID: a one-off event or a series (with its EXDATEs). */
function readMaster(
  vevent: ICAL.Component,
  uid: string,
  ctx: ReadContext,
  skip: (reason: string) => void,
): { event: ImportedEvent; series: Series | null } | null {
  if (String(vevent.getFirstPropertyValue("status") ?? "").toUpperCase() === "CANCELLED") {
    skip("cancelled in the file (STATUS:CANCELLED)");
    return null;
  }
  const read = readTiming(vevent, ctx.calendarZone, ctx.fileZones);
  if ("skip" in read) {
    skip(read.skip);
    return null;
  }
  const { fields, cuts } = readFields(vevent);
  const alarms = readAlarms(vevent, lengthMinutes(read.timing));
  const { date, start_time, end_time, days } = read.timing;
  const event: ImportedEvent = {
    uid,
    event: { ...fields, date, start_time, end_time, days, alarms: alarms.alarms },
    exceptions: [],
  };
  // An empty `RRULE:` (no FREQ), as some holiday feeds write, repeats nothing.
  const rules = vevent.getAllProperties("rrule").filter((p) => (p.getFirstValue() as ICAL.Recur | null)?.freq);
  if (rules.length > 1) {
    skip(`it has ${rules.length} RRULEs; an Almanac series follows one rule`);
    return null;
  }
  if (vevent.hasProperty("exrule")) {
    skip("EXRULE is not something Almanac can represent");
    return null;
  }
  let series: Series | null = null;
  const rule = rules.length === 1 ? (rules[0].getFirstValue() as ICAL.Recur) : null;
  const mapped = rule && readRule(rule, read, ctx.calendarZone);
  if (rule && mapped && !("once" in mapped)) {
    const reason =
      "skip" in mapped ? mapped.skip : verifyRule(rule, read, mapped.recur, ctx.calendarZone, ctx.verifyLimit);
    if (reason !== null || "skip" in mapped) {
      skip(reason ?? "its RRULE cannot be read");
      return null;
    }
    event.event = { ...event.event, date: null, recur: mapped.recur };
    series = { uid, recur: mapped.recur, read, fields, alarms: alarms.alarms };
    const exdates = readExdates(vevent, series, ctx);
    event.exceptions.push(...exdates.cancelled);
    exdates.notes.forEach(skip);
  } else if (vevent.hasProperty("exdate")) {
    const why = rule?.freq ? "its RRULE ends before DTSTART" : "it has no RRULE";
    skip(`its EXDATE was left out: the event does not repeat (${why})`);
  }
  for (const prop of vevent.getAllProperties("rdate")) {
    skip(`RDATE ${prop.getValues().map(String).join(", ")} was left out: an Almanac series has no extra dates`);
  }
  [...cuts, ...alarms.left].forEach(skip);
  return { event, series };
}

/** Each RECURRENCE-ID override as an exception of its series, or skipped with the reason. */
async function readOverrides(
  vevents: ICAL.Component[],
  series: ReadonlyMap<string, Series & { event: ImportedEvent }>,
  ctx: ReadContext,
  skipped: SkippedComponent[],
  pause: () => Promise<void>,
): Promise<void> {
  for (const vevent of vevents.filter((v) => v.hasProperty("recurrence-id"))) {
    const uid = uidOf(vevent);
    const skip = (reason: string) => skipped.push({ uid, reason });
    const own = uid === null ? undefined : series.get(uid);
    if (!own) {
      skip("an override (RECURRENCE-ID) whose series is not in the text, or was not imported");
      continue;
    }
    const read = guarded(skip, () => readOverride(vevent, own, ctx));
    await pause();
    if (!read) continue;
    if ("skip" in read) {
      skip(`an override: ${read.skip}`);
      continue;
    }
    read.notes.forEach(skip);
    if (!read.exception) continue;
    const { exceptions } = own.event;
    const date = read.exception.original_date;
    const earlier = exceptions.find((e) => e.original_date === date);
    if (earlier) {
      const by = earlier.change.cancelled ? "an EXDATE cancels" : "another override changes";
      skip(`the override of ${date} was left out: ${by} that occurrence`);
      continue;
    }
    exceptions.push(read.exception);
  }
  for (const s of series.values()) s.event.exceptions.sort((a, b) => (a.original_date < b.original_date ? -1 : 1));
}
