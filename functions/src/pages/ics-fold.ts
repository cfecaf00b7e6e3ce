/**
 * The text of an ical-generator calendar, folded in one pass of our own.
 *
 * ical-generator folds the whole calendar in `foldLines`, which builds a new TextEncoder for
 * every character: about 100 ms of CPU for a feed of 200 events, during which the process
 * answers nothing else. Here each event's unfolded text comes from `ICalEvent.toString()`
 * (public API), the calendar around them (header, VTIMEZONEs, END) from the calendar's own
 * `toString()` with the events standing in as one short marker line, and the events are
 * folded by `foldIcsLines`, which writes exactly what `foldLines` writes (test/unit/ics-fold.test.ts
 * compares the two on varied Unicode, byte for byte).
 */
import type { ICalCalendar, ICalEvent } from "ical-generator";

/** A line no property can produce (RFC 5545 names are letters, digits and dashes; this has an underscore). */
const EVENTS_MARKER = "X-ALMANAC_EVENTS_HERE";

const END_EVENT = "END:VEVENT\r\n";

/**
 * `calendar.toString()`, byte for byte, without ical-generator's per-character folding of the
 * events; `components[i]`, when given, is unfolded text (VALARMs) that goes into the i-th event
 * after all its properties, where RFC 5545 puts a VEVENT's components.
 */
export function calendarText(calendar: ICalCalendar, components: readonly string[] = []): string {
  const events = calendar.events();
  if (events.length === 0) return calendar.toString();
  const unfolded = events.map((event, i) => withComponents(event.toString(), components[i] ?? "")).join("");
  // The calendar writes each event's toString() in turn: the first writes the marker, the rest nothing.
  events.forEach((event, i) => standIn(event, i === 0 ? `${EVENTS_MARKER}\r\n` : ""));
  let frame: string;
  try {
    frame = calendar.toString();
  } finally {
    for (const event of events) Reflect.deleteProperty(event, "toString");
  }
  const at = frame.indexOf(`${EVENTS_MARKER}\r\n`);
  if (at < 0) throw new Error("ical-generator did not write the events where expected; check calendarText");
  return frame.slice(0, at) + foldIcsLines(unfolded) + frame.slice(at + EVENTS_MARKER.length + 2);
}

function withComponents(event: string, components: string): string {
  if (components === "") return event;
  if (!event.endsWith(END_EVENT)) throw new Error("ical-generator did not end an event with END:VEVENT");
  return event.slice(0, -END_EVENT.length) + components + END_EVENT;
}

/** Shadows the prototype's toString on this one instance, until deleted. */
function standIn(event: ICalEvent, text: string): void {
  Object.defineProperty(event, "toString", { value: () => text, configurable: true, writable: true });
}

/** At most this many octets of content on a line: ical-generator folds when a character would make 75. */
const LINE_OCTETS = 74;

/** Lines that need no folding whatever their characters: at most 3 octets per UTF-16 unit. */
const SHORT_LINE = Math.floor(LINE_OCTETS / 3);

/** Any UTF-16 unit above ASCII (surrogates included: without the u flag a class ranges over units). */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * RFC 5545 3.1 folding as ical-generator's `foldLines` does it: each CRLF-separated line
 * gets "CRLF space" before the character that would take its octets past 74 (the space of a
 * continuation line is not counted), never inside a character's UTF-8 sequence. A high
 * surrogate is taken together with the unit after it, whatever that is, and a lone
 * surrogate counts as U+FFFD (3 octets), as TextEncoder encodes it.
 */
export function foldIcsLines(text: string): string {
  const lines = text.split("\r\n");
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    if (line.length <= SHORT_LINE) continue;
    if (!NON_ASCII.test(line)) {
      if (line.length > LINE_OCTETS) lines[n] = foldAscii(line);
    } else {
      lines[n] = foldUnicode(line);
    }
  }
  return lines.join("\r\n");
}

/** One octet per character: pieces of 74. */
function foldAscii(line: string): string {
  const pieces: string[] = [];
  for (let i = 0; i < line.length; i += LINE_OCTETS) pieces.push(line.slice(i, i + LINE_OCTETS));
  return pieces.join("\r\n ");
}

function foldUnicode(line: string): string {
  const pieces: string[] = [];
  let start = 0;
  let octets = 0;
  for (let i = 0; i < line.length;) {
    const unit = line.charCodeAt(i);
    let width = 1;
    let size: number;
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < line.length) {
      const next = line.charCodeAt(i + 1);
      width = 2;
      size = next >= 0xdc00 && next <= 0xdfff ? 4 : 3 + unitOctets(next);
    } else {
      size = unitOctets(unit);
    }
    octets += size;
    if (octets > LINE_OCTETS) {
      pieces.push(line.slice(start, i));
      start = i;
      octets = size;
    }
    i += width;
  }
  pieces.push(line.slice(start));
  return pieces.join("\r\n ");
}

/** UTF-8 octets of one UTF-16 unit on its own (a surrogate alone is U+FFFD). */
const unitOctets = (unit: number): number => (unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3);
