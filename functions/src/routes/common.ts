import { IANAZone } from "luxon";
import { z } from "zod";
import { MAX_ALARM_MINUTES, MAX_ALARMS } from "../domain/events/alarms.js";
import { MAX_EVENT_DAYS } from "../domain/events/span.js";
import { isIdOf, type IdPrefix } from "../domain/ids.js";
import { isInputDate } from "../domain/recurrence/index.js";

/** Schemas shared by several routers. */
export const timezone = z
  .string()
  .refine((zone) => IANAZone.isValidZone(zone), {
    message: "must be an IANA time zone such as `Europe/Berlin` or `UTC`",
  })
  .overwrite(canonicalZone);

// Requests take the same enums as the answers show (presenters/schemas/common.ts).
export { lens, role, visibility } from "../presenters/schemas/common.js";
/**
 * Text hygiene (docs/api.md#ids-and-text), one rule for every text that comes in. Controls: C0
 * and C1 (NUL, ESC, NEL...); free text keeps tab and newline. A lone surrogate is no text.
 */
const CONTROL = /\p{Cc}/u;
const CONTROL_BUT_TAB_NEWLINE = /(?![\t\n])\p{Cc}/u;
/**
 * A character a reader sees: not white space, not a control or format character (zero-width
 * space, joiners, soft hyphen, BOM), not default-ignorable (Hangul filler), not a combining
 * mark on its own, not the blank Braille pattern.
 */
const VISIBLE = /[^\p{White_Space}\p{Cc}\p{Cf}\p{M}\p{Default_Ignorable_Code_Point}\u2800]/u;

/** String.prototype.isWellFormed, which the compile target does not declare yet. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (s: string) => !LONE_SURROGATE.test(s);
const NOT_WELL_FORMED = { message: "must be well-formed Unicode text (it contains a lone surrogate)" };

/** Names, labels, categories: trimmed, 1..max characters, at least one visible, no control characters at all. */
export const trimmedName = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { message: "must not be empty" })
    .max(max, { message: `must be at most ${max} characters` })
    .refine(wellFormed, NOT_WELL_FORMED)
    .refine((s) => !CONTROL.test(s), {
      message: "must not contain control characters (NUL, tab, newline, escape...); send one line of text",
    })
    .refine((s) => VISIBLE.test(s), { message: "must contain at least one visible character" });

/** Free text (notes, purpose, messages): up to max characters; tab and newline allowed, CRLF stored as LF. */
export const freeText = (max: number) =>
  z
    .string()
    .max(max, { message: `must be at most ${max} characters` })
    .overwrite((s) => s.replace(/\r\n?/g, "\n"))
    .refine(wellFormed, NOT_WELL_FORMED)
    .refine((s) => !CONTROL_BUT_TAB_NEWLINE.test(s), {
      message: "must not contain control characters other than tab and newline (NUL, escape...)",
    });

/**
 * The canonical IANA spelling of a valid zone: `europe/BERLIN` -> `Europe/Berlin`. Intl gives
 * ICU's name; for an alias ICU renames (`Asia/Kolkata` -> `Asia/Calcutta`, `US/Pacific`) the
 * name sent is kept, in IANA's capitalization (the rule of temporal-polyfill, MIT), when it
 * names the same zone.
 */
export function canonicalZone(zone: string): string {
  const resolve = (name: string): string | null => {
    try {
      return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
    } catch {
      return null;
    }
  };
  const icu = resolve(zone);
  if (icu === null || icu.toLowerCase() === zone.toLowerCase()) return icu ?? zone;
  const spelled = ianaCapitalization(zone);
  return resolve(spelled) === icu ? spelled : icu;
}

function ianaCapitalization(zone: string): string {
  const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  return zone
    .toLowerCase()
    .split("/")
    .map((part, index) =>
      (part.length <= 3 || /\d/.test(part)) && !/etc|yap/.test(part)
        ? part.toUpperCase() // UTC, GMT, EST5EDT, US
        : part.replace(
            /baja|dumont|[a-z]+/g,
            (word, at: number) =>
              (word.length <= 2 && index === 0) || word === "in" || word === "chat"
                ? word.toUpperCase()
                : word.length > 2 || at === 0
                  ? capitalize(word).replace(/island|noronha|murdo|rivadavia|urville/, capitalize)
                  : word, // Port-au-Prince
          ),
    )
    .join("/");
}

/**
 * An id of one kind, in a path or a body (docs/api.md#ids-and-text): its prefix, `_`, then letters
 * and digits. A path parameter that fails is 404 (http/route.ts), a body field 400.
 */
export const idOf = (prefix: IdPrefix) =>
  z
    .string()
    // The pattern documents the shape in /openapi.json; isIdOf (domain/ids.ts) is the rule.
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9]+$`), {
      message: `must be an id as the API returned it: \`${prefix}_\` followed by letters and digits`,
    })
    .refine((value) => isIdOf(prefix, value), { message: "is longer than any id the API issues" });

export const calendarParams = z.object({ calendarId: idOf("cal").describe("Calendar id") });

/** Distinct calendar ids, 1 to `max` of them (a webhook's, a credential's). */
export const calendarIdList = (max: number) =>
  z
    .array(idOf("cal"))
    .min(1, { message: "must name at least one calendar id" })
    .max(max, { message: `must name at most ${max} calendars` })
    .refine((ids) => new Set(ids).size === ids.length, { message: "must list distinct calendar ids" });

/** `limit` and `cursor` of every list endpoint (docs/api.md#paging). */
export const pageQuery = {
  limit: z.coerce
    .number({ message: "must be an integer from 1 to 1000" })
    .int({ message: "must be an integer from 1 to 1000" })
    .min(1, { message: "must be an integer from 1 to 1000" })
    .max(1000, { message: "must be an integer from 1 to 1000" })
    .default(1000)
    .describe("Page size"),
  cursor: z.string().optional().describe("`next_cursor` of the previous page"),
};

export const deleted = z.object({ deleted: z.string() });

export const date = z.string().refine(isInputDate, {
  message: "must be a real date from 0001-01-01 to 9999-12-31 in YYYY-MM-DD form, e.g. 2026-03-14",
});

export const time = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: "must be a time of day HH:MM from 00:00 to 23:59" });

/** `days` of an event or an occurrence: whole dates from 1 to 366 (domain/events/span.ts). */
export const spanDays = z
  .number({ error: `must be a whole number of days from 1 to ${MAX_EVENT_DAYS}` })
  .int({ error: `must be a whole number of days from 1 to ${MAX_EVENT_DAYS}` })
  .min(1, { error: `must be a whole number of days from 1 to ${MAX_EVENT_DAYS}` })
  .max(MAX_EVENT_DAYS, { error: `must be a whole number of days from 1 to ${MAX_EVENT_DAYS}` });

/**
 * Alarms as sent: any list, whose values domain/events/alarms.ts checks, so that every problem
 * (a count, a value, a duplicate) is reported on `alarms` itself with what to send rather than
 * on `alarms.2`. The JSON Schema still says what a value must be.
 */
export const alarmList = z
  .array(z.unknown(), {
    error: "must be a list of minutes before the start, such as [1440, 15], or null for none",
  })
  .meta({
    items: { type: "integer", minimum: 0, maximum: MAX_ALARM_MINUTES },
    maxItems: MAX_ALARMS,
    uniqueItems: true,
  });
