/**
 * Reads an iCalendar text (RFC 5545) into an import plan (plan.ts): each VEVENT an event in
 * the calendar's zone, with its exceptions, and every component or part of one that Almanac
 * cannot hold listed with the reason (docs/import.md, "What is read"). Pure: no store, no clock.
 */
import { createHash } from "node:crypto";
import ICAL from "ical.js";
import { errors } from "../errors.js";
import { readAlarms } from "./alarms.js";
import { readExdates, readOverride, type ReadContext, type Series } from "./exceptions.js";
import { readFields } from "./fields.js";
import { MAX_IMPORT_EVENTS, type ImportedEvent, type ImportPlan, type SkippedComponent } from "./plan.js";
import { readRule } from "./rules.js";
import { lengthMinutes, readTiming } from "./times.js";
import { verifyLimit, verifyRule } from "./verify.js";
import { fileZonesOf } from "./zones.js";

/** The VCALENDAR components of the text; a text that is not iCalendar is refused with the parser's reason. */
function calendarsOf(text: string): ICAL.Component[] {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 200);
    const line = lineOf(text, reason);
    throw errors.invalid(
      "invalid_request",
      `the body is not iCalendar text (RFC 5545)${line === null ? "" : ` at line ${line}`}: ${reason}`,
    );
  }
  // One VCALENDAR parses to a jCal array; several to a list of them.
  const list = (Array.isArray(parsed) && typeof parsed[0] === "string" ? [parsed] : (parsed as unknown[])) ?? [];
  const calendars = list.map((jcal) => new ICAL.Component(jcal as unknown[]));
  if (calendars.length === 0 || calendars.some((c) => c.name !== "vcalendar")) {
    throw errors.invalid(
      "invalid_request",
      "the body is not iCalendar text (RFC 5545): it must be a BEGIN:VCALENDAR ... END:VCALENDAR block",
    );
  }
  return calendars;
}

/** The line of the text holding what the parser's message quotes (the longest quote found in it), if any. */
function lineOf(text: string, reason: string): number | null {
  const quotes = [...reason.matchAll(/"([^"]+)"/g)].map((m) => m[1]).sort((a, b) => b.length - a.length);
  const at = quotes.map((q) => text.indexOf(q)).find((i) => i >= 0) ?? -1;
  return at < 0 ? null : text.slice(0, at).split("\n").length;
}

const uidOf = (component: ICAL.Component): string | null => {
  const uid = component.getFirstPropertyValue("uid");
  return uid == null || String(uid).trim() === "" ? null : String(uid).trim();
};

/** A UID for a VEVENT without one, from what it is: the same VEVENT gets the same UID on every import. */
function derivedUid(vevent: ICAL.Component): string {
  const start = vevent.getFirstProperty("dtstart")?.toICALString() ?? "";
  const summary = String(vevent.getFirstPropertyValue("summary") ?? "");
  return `${createHash("sha256").update(`${start}\n${summary}`).digest("hex").slice(0, 32)}@import.almanac`;
}

export function readIcs(text: string, options: { timezone: string }): ImportPlan {
  const ctx: ReadContext = { calendarZone: options.timezone, fileZones: new Map(), verifyLimit: 0 };
  const skipped: SkippedComponent[] = [];
  const vevents: ICAL.Component[] = [];
  for (const calendar of calendarsOf(text)) {
    for (const [tzid, zone] of fileZonesOf(calendar)) (ctx.fileZones as Map<string, ICAL.Timezone>).set(tzid, zone);
    for (const component of calendar.getAllSubcomponents()) {
      if (component.name === "vevent") vevents.push(component);
      else if (component.name !== "vtimezone") {
        skipped.push({ uid: uidOf(component), reason: `${component.name.toUpperCase()}: only events are imported` });
      }
    }
  }
  if (vevents.length > MAX_IMPORT_EVENTS) {
    throw errors.invalid(
      "invalid_request",
      `the text holds ${vevents.length} events (VEVENTs, overrides included); an import takes at most ${MAX_IMPORT_EVENTS}: split it`,
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
    if (!read) continue;
    events.push(read.event);
    if (read.series) series.set(uid, { ...read.series, event: read.event });
  }
  readOverrides(vevents, series, ctx, skipped);
  return { events, skipped };
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
  const rules = vevent.getAllProperties("rrule");
  if (rules.length > 1) {
    skip(`it has ${rules.length} RRULEs; an Almanac series follows one rule`);
    return null;
  }
  if (vevent.hasProperty("exrule")) {
    skip("EXRULE is not something Almanac can represent");
    return null;
  }
  let series: Series | null = null;
  if (rules.length === 1) {
    const rule = rules[0].getFirstValue() as ICAL.Recur;
    const mapped = readRule(rule, read, ctx.calendarZone);
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
    skip("its EXDATE was left out: the event does not repeat (it has no RRULE)");
  }
  for (const prop of vevent.getAllProperties("rdate")) {
    skip(`RDATE ${prop.getValues().map(String).join(", ")} was left out: an Almanac series has no extra dates`);
  }
  [...cuts, ...alarms.left].forEach(skip);
  return { event, series };
}

/** Each RECURRENCE-ID override as an exception of its series, or skipped with the reason. */
function readOverrides(
  vevents: ICAL.Component[],
  series: ReadonlyMap<string, Series & { event: ImportedEvent }>,
  ctx: ReadContext,
  skipped: SkippedComponent[],
): void {
  for (const vevent of vevents.filter((v) => v.hasProperty("recurrence-id"))) {
    const uid = uidOf(vevent);
    const skip = (reason: string) => skipped.push({ uid, reason });
    const own = uid === null ? undefined : series.get(uid);
    if (!own) {
      skip("an override (RECURRENCE-ID) whose series is not in the text, or was not imported");
      continue;
    }
    const read = guarded(skip, () => readOverride(vevent, own, ctx));
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
