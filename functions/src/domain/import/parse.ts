/**
 * An iCalendar text parsed one top-level component at a time: each VEVENT, VTIMEZONE or other
 * component of each VCALENDAR is handed to ical.js alone, so a line ical.js refuses costs its
 * component only (skipped with the parser's reason and line), the reader can let other requests
 * run between components, and ical.js never searches the whole calendar for a VTIMEZONE.
 *
 * Before a component is parsed, two habits of other software are mended: a DATE value written
 * without `VALUE=DATE` (`DTSTART:20190101`) gets it, and the spaces of an RRULE list
 * (`BYDAY=MO, TU`) go. A text that does not split into VCALENDAR blocks is parsed whole, and
 * refused with the parser's reason and line when ical.js refuses it.
 */
import ICAL from "ical.js";
import { errors } from "../errors.js";
import type { SkippedComponent } from "./plan.js";

export interface ParsedText {
  /** The first VCALENDAR's own name for itself (X-WR-CALNAME), when it gives one. */
  name: string | null;
  /** The VTIMEZONEs, then every other top-level component, each in text order. */
  zones: ICAL.Component[];
  components: ICAL.Component[];
  /** Components the parser refused, each with its reason. */
  refused: SkippedComponent[];
}

const NOT_ICALENDAR = "the body is not iCalendar text (RFC 5545)";

/** A top-level component's lines and the line (1-based) of the text it starts on. */
interface Chunk {
  lines: string[];
  firstLine: number;
}

/** The name a BEGIN or END line opens or closes, its folded continuation included. */
function markerOf(lines: string[], at: number): { begin: boolean; name: string } | null {
  const line = lines[at];
  const head = line.slice(0, 6).toUpperCase();
  const begin = head === "BEGIN:";
  if (!begin && !head.startsWith("END:")) return null;
  let name = line.slice(begin ? 6 : 4);
  for (let next = at + 1; next < lines.length && /^[ \t]/.test(lines[next]); next++) name += lines[next].slice(1);
  return { begin, name: name.trim().toUpperCase() };
}

/**
 * The top-level components of each VCALENDAR, and the lines of the first VCALENDAR's own
 * properties; null when the text is not a sequence of VCALENDAR blocks.
 */
function chunksOf(text: string): { chunks: Chunk[]; header: string[] } | null {
  // A byte order mark before BEGIN:VCALENDAR is no content.
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const chunks: Chunk[] = [];
  const header: string[] = [];
  let calendars = 0;
  let depth = 0;
  let start = -1;
  for (let at = 0; at < lines.length; at++) {
    const marker = markerOf(lines, at);
    if (!marker) {
      if (depth === 0 && lines[at].trim() !== "") return null;
      if (depth === 1 && calendars === 1) header.push(lines[at]);
      continue;
    }
    if (marker.begin) {
      if (depth === 0 && marker.name !== "VCALENDAR") return null;
      if (depth === 0) calendars++;
      if (depth === 1) start = at;
      depth++;
    } else {
      depth--;
      if (depth < 0 || (depth === 0 && marker.name !== "VCALENDAR")) return null;
      if (depth === 1) chunks.push({ lines: lines.slice(start, at + 1), firstLine: start + 1 });
    }
  }
  return depth === 0 && calendars > 0 ? { chunks, header } : null;
}

/** X-WR-CALNAME of a VCALENDAR's own property lines; null when absent or unreadable. */
function calendarName(header: readonly string[]): string | null {
  if (!header.some((line) => /^X-WR-CALNAME[;:]/i.test(line))) return null;
  try {
    const calendar = ICAL.parse(["BEGIN:VCALENDAR", ...header, "END:VCALENDAR"].join("\r\n")) as unknown[];
    return nameOf(new ICAL.Component(calendar));
  } catch {
    return null;
  }
}

/**
 * A calendar's X-WR-CALNAME as text: ical.js leaves an X- property's value as written, so its
 * TEXT escapes (RFC 5545 3.3.11) are undone here, a line break read as a space.
 */
function nameOf(calendar: ICAL.Component): string | null {
  const raw = calendar.getFirstPropertyValue("x-wr-calname");
  if (typeof raw !== "string") return null;
  const name = raw.replace(/\\([\\;,nN])/g, (_, c: string) => (c === "n" || c === "N" ? " " : c)).trim();
  return name === "" ? null : name;
}

const DATE_PROPERTIES = /^(DTSTART|DTEND|DUE|RECURRENCE-ID|EXDATE|RDATE)((?:;[^:\r\n]*)?):(\d{8}(?:,\d{8})*)$/i;
const RULE_PROPERTIES = /^(RRULE|EXRULE)[;:]/i;

/** A line as ical.js can read it: a bare DATE value marked as one, an RRULE without spaces in its lists. */
function mended(line: string): string {
  if (RULE_PROPERTIES.test(line)) return line.replace(/,\s+/g, ",");
  const date = DATE_PROPERTIES.exec(line);
  if (date && !/;VALUE=/i.test(date[2])) return `${date[1]}${date[2]};VALUE=DATE:${date[3]}`;
  return line;
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 200);

/** The 0-based index of the line holding what the parser's message quotes (the longest quote found), if any. */
function quotedLine(lines: readonly string[], reason: string): number | null {
  const quotes = [...reason.matchAll(/"([^"]+)"|'([^']+)'/g)]
    .map((m) => m[1] ?? m[2])
    .sort((a, b) => b.length - a.length);
  for (const quote of quotes) {
    const at = lines.findIndex((line) => line.includes(quote));
    if (at >= 0) return at;
  }
  return null;
}

/** The UID written in a component's lines, for one the parser refused. */
function rawUid(lines: readonly string[]): string | null {
  const line = lines.find((l) => /^UID[;:]/i.test(l));
  const uid = line?.slice(line.indexOf(":") + 1).trim();
  return uid ? uid : null;
}

function parseChunk(chunk: Chunk): ICAL.Component | SkippedComponent {
  const lines = chunk.lines.map(mended);
  try {
    return new ICAL.Component(ICAL.parse(lines.join("\r\n")) as unknown[]);
  } catch (error) {
    const reason = reasonOf(error);
    const at = quotedLine(lines, reason);
    const where = at === null ? "" : ` at line ${chunk.firstLine + at}`;
    const name = markerOf(chunk.lines, 0)?.name ?? "a component";
    return { uid: rawUid(chunk.lines), reason: `${name} could not be parsed${where}: ${reason}` };
  }
}

/** The whole text parsed at once, for a text that does not split into VCALENDAR blocks. */
function parseWhole(text: string): ParsedText {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
  } catch (error) {
    const reason = reasonOf(error);
    const at = quotedLine(text.split(/\r\n|\n|\r/), reason);
    throw errors.invalid("invalid_request", `${NOT_ICALENDAR}${at === null ? "" : ` at line ${at + 1}`}: ${reason}`);
  }
  // One VCALENDAR parses to a jCal array; several to a list of them.
  const list = (Array.isArray(parsed) && typeof parsed[0] === "string" ? [parsed] : (parsed as unknown[])) ?? [];
  const calendars = list.map((jcal) => new ICAL.Component(jcal as unknown[]));
  if (calendars.length === 0 || calendars.some((c) => c.name !== "vcalendar")) {
    throw errors.invalid("invalid_request", `${NOT_ICALENDAR}: it must be a BEGIN:VCALENDAR ... END:VCALENDAR block`);
  }
  const all = calendars.flatMap((c) => c.getAllSubcomponents());
  return {
    name: nameOf(calendars[0]),
    zones: all.filter((c) => c.name === "vtimezone"),
    components: all.filter((c) => c.name !== "vtimezone"),
    refused: [],
  };
}

/** The text's components; `pause` is awaited between them and may let other work run. */
export async function parseText(text: string, pause: () => Promise<void>): Promise<ParsedText> {
  const split = chunksOf(text);
  if (split === null) return parseWhole(text);
  const parsed: ParsedText = { name: calendarName(split.header), zones: [], components: [], refused: [] };
  for (const chunk of split.chunks) {
    const read = parseChunk(chunk);
    if (!(read instanceof ICAL.Component)) parsed.refused.push(read);
    else if (read.name === "vtimezone") parsed.zones.push(read);
    else parsed.components.push(read);
    await pause();
  }
  return parsed;
}
