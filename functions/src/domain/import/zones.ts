/**
 * The zone a DATE-TIME is read in, and its reading turned into the calendar's wall clock.
 *
 * A TZID is read as an IANA name when it is one; as a Windows name (Outlook's "W. Europe
 * Standard Time") through windows-iana, or a Windows display name (OWA's "(UTC-05:00) Eastern
 * Time (US & Canada)") through display-names.ts; as a prefixed id (Thunderbird's
 * "/mozilla.org/20050126_1/Europe/Berlin") by the IANA name at its end; else through the file's
 * own VTIMEZONE of that id, which ical.js reads. Floating times are the calendar's own.
 */
import ICAL from "ical.js";
import { DateTime, IANAZone } from "luxon";
import { findIana } from "windows-iana";
import { windowsZoneOfDisplayName } from "./display-names.js";
import { instantOf, readingAt, type WallClock } from "./offsets.js";

export type { WallClock } from "./offsets.js";

export interface Zone {
  /** The IANA name, or the file's TZID for a zone known only from its VTIMEZONE. */
  name: string;
  /** Whether wall-clock readings are already the calendar's (floating, or the calendar's own zone). */
  local: boolean;
  /** Whether `name` is an IANA name (else the zone is the file's VTIMEZONE). */
  iana: boolean;
  /** The instant (epoch ms) of a wall-clock reading in this zone. */
  instant(wall: ICAL.Time): number;
  /** The wall-clock reading (floating) of an instant in this zone. */
  reading(ms: number): ICAL.Time;
}

/** The same reading with no zone: ical.js arithmetic on it is wall-clock arithmetic. */
export const floating = (t: ICAL.Time): ICAL.Time =>
  ICAL.Time.fromData({
    year: t.year,
    month: t.month,
    day: t.day,
    hour: t.hour,
    minute: t.minute,
    second: t.second,
    isDate: t.isDate,
  });

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The date and minute an ICAL.Time reads, without converting it. */
export const wallOf = (t: ICAL.Time): WallClock => ({
  date: `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`,
  time: `${pad(t.hour)}:${pad(t.minute)}`,
});

/** Whether luxon knows each name asked about: it builds an Intl.DateTimeFormat to find out. */
const validNames = new Map<string, boolean>();
/** The IANA name of each TZID asked about. */
const ianaNames = new Map<string, string | null>();
const MAX_CACHED = 1000;

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, value);
  return value;
}

const isIana = (name: string): boolean =>
  validNames.get(name) ?? remember(validNames, name, !/\s/.test(name) && IANAZone.isValidZone(name));

/** The IANA name a TZID stands for, or null. */
export function ianaName(tzid: string): string | null {
  const known = ianaNames.get(tzid);
  return known !== undefined ? known : remember(ianaNames, tzid, findIanaName(tzid));
}

function findIanaName(tzid: string): string | null {
  const id = tzid.trim().replace(/^"|"$/g, "");
  if (id.toUpperCase() === "UTC" || id.toUpperCase() === "Z" || id === "Etc/UTC" || id === "GMT") return "UTC";
  if (isIana(id)) return id;
  const windows = findIana(id);
  if (windows.length > 0 && isIana(windows[0])) return windows[0];
  const displayed = windowsZoneOfDisplayName(id);
  const named = displayed === null ? [] : findIana(displayed);
  if (named.length > 0 && isIana(named[0])) return named[0];
  // A prefixed id ends in an IANA name of two or three parts: try the longest tail first.
  const parts = id.split("/").filter(Boolean);
  for (const size of [3, 2]) {
    if (parts.length > size) {
      const tail = parts.slice(-size).join("/");
      if (isIana(tail)) return tail;
    }
  }
  return null;
}

/** A zone luxon knows by name. */
export function namedZone(name: string, calendarZone: string): Zone {
  return {
    name,
    local: name === calendarZone,
    iana: true,
    instant: (t) => instantOf(name, wallOf(t)) + t.second * 1000,
    reading: (ms) => {
      const at = DateTime.fromMillis(ms, { zone: name });
      const { year, month, day, hour, minute, second } = at;
      return ICAL.Time.fromData({ year, month, day, hour, minute, second });
    },
  };
}

/** A zone known only from the file's VTIMEZONE, read by ical.js. */
function fileZone(tzid: string, zone: ICAL.Timezone): Zone {
  return {
    name: tzid,
    local: false,
    iana: false,
    instant: (t) => {
      const at = new ICAL.Time(
        { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second },
        zone,
      );
      return at.toUnixTime() * 1000;
    },
    reading: (ms) => {
      return floating(ICAL.Time.fromJSDate(new Date(ms), true).convertToZone(zone));
    },
  };
}

/**
 * The zone of a date-time property's value: UTC for a "Z" value, the calendar's for a
 * floating one, else its TZID's; null when the TZID is neither a known name nor defined in the file.
 */
export function zoneOfProperty(
  prop: ICAL.Property,
  calendarZone: string,
  fileZones: ReadonlyMap<string, ICAL.Timezone>,
): Zone | null {
  const value = prop.getFirstValue() as ICAL.Time;
  if (value.zone === ICAL.Timezone.utcTimezone) return namedZone("UTC", calendarZone);
  const tzid = prop.getParameter("tzid") as string | undefined;
  if (!tzid) return namedZone(calendarZone, calendarZone);
  const iana = ianaName(tzid);
  if (iana) return namedZone(iana, calendarZone);
  const own = fileZones.get(tzid);
  return own ? fileZone(tzid, own) : null;
}

/**
 * A STANDARD or DAYLIGHT observance given by RDATEs (as khal writes them from pytz) with every
 * onset an RDATE of its own: ical.js reads only the first value of an RDATE and, once there is
 * one, not DTSTART, which RFC 5545 counts as the first onset; it then reads such a zone with
 * offset 0 before the first RDATE it kept.
 */
function withOnsetsAsRdates(observance: ICAL.Component): void {
  if (!observance.hasProperty("rdate") || observance.hasProperty("rrule")) return;
  const start = observance.getFirstPropertyValue("dtstart") as ICAL.Time | null;
  const onsets = observance.getAllProperties("rdate").flatMap((p) => p.getValues() as ICAL.Time[]);
  if (start) onsets.push(start);
  observance.removeAllProperties("rdate");
  const seen = new Set<string>();
  for (const onset of onsets) {
    if (typeof onset !== "object" || seen.has(onset.toString())) continue;
    seen.add(onset.toString());
    const rdate = new ICAL.Property("rdate");
    rdate.setValue(onset);
    observance.addProperty(rdate);
  }
}

/** The file's VTIMEZONEs by TZID (a later one of the same TZID wins). */
export function fileZonesOf(vtimezones: readonly ICAL.Component[]): Map<string, ICAL.Timezone> {
  const zones = new Map<string, ICAL.Timezone>();
  for (const vtimezone of vtimezones) {
    const tzid = vtimezone.getFirstPropertyValue("tzid");
    if (typeof tzid !== "string") continue;
    try {
      vtimezone.getAllSubcomponents().forEach(withOnsetsAsRdates);
      zones.set(tzid, new ICAL.Timezone(vtimezone));
    } catch {
      // A VTIMEZONE ical.js cannot read is no zone: its events are skipped as in an unknown zone.
    }
  }
  return zones;
}

/** A wall-clock reading in `zone` as the calendar's zone reads it (unchanged when already local). */
export function toCalendar(t: ICAL.Time, zone: Zone, calendarZone: string): WallClock {
  if (zone.local) return wallOf(t);
  return readingAt(calendarZone, zone.instant(t));
}
