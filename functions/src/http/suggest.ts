/**
 * What an unknown field was probably meant to be, for the refusal's message: the names agents
 * bring from other calendar APIs, then a known field one or two edits away.
 */
import type { z } from "zod";

/** Names from other calendar APIs, and ours. */
const SYNONYMS: Record<string, string> = {
  title: "name",
  summary: "name",
  description: "notes",
  start: "start_time",
  end: "end_time",
  start_date: "date",
  rrule: "recur",
  recurrence: "recur",
  color: "art",
};

/** `timezone` on an event: events have none of their own. */
const CALENDAR_ONLY: Record<string, string> = {
  timezone: "events take their calendar's `timezone`; change it on the calendar (PATCH /v1/calendars/{calendarId})",
};

/** The hint for `key` among `known` fields, or null. */
export function suggestionFor(key: string, known: readonly string[]): string | null {
  if (known.length === 0) return null;
  const synonym = SYNONYMS[key.toLowerCase()];
  if (synonym && known.includes(synonym)) return `did you mean \`${synonym}\`?`;
  if (CALENDAR_ONLY[key] && known.includes("recur")) return CALENDAR_ONLY[key];
  const close = known
    .map((field) => ({ field, distance: editDistance(key.toLowerCase(), field) }))
    .filter(({ distance }) => distance <= Math.min(2, Math.floor(key.length / 3)))
    .sort((a, b) => a.distance - b.distance)[0];
  return close ? `did you mean \`${close.field}\`?` : null;
}

/** The fields of the object schema at `path` under `schema`, through optional, nullable and default wrappers. */
export function knownFields(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let shape = shapeOf(schema);
  for (const part of path) {
    const next = shape?.[String(part)];
    shape = next ? shapeOf(next) : undefined;
  }
  return shape ? Object.keys(shape) : [];
}

interface Wrapped {
  shape?: Record<string, z.ZodType>;
  def?: { innerType?: z.ZodType; in?: z.ZodType };
}

function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  let current = schema as unknown as Wrapped | undefined;
  for (let depth = 0; current && depth < 8; depth++) {
    if (current.shape) return current.shape;
    current = (current.def?.innerType ?? current.def?.in) as unknown as Wrapped | undefined;
  }
  return undefined;
}

/** Levenshtein distance; names are short. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
