/**
 * The text of a VEVENT as an event's fields: SUMMARY the name, DESCRIPTION the notes with
 * LOCATION and URL as lines after it, the first of CATEGORIES the category. Each is cut to
 * what an event holds; a cut is reported, never silent.
 */
import type ICAL from "ical.js";

export const MAX_NAME_CHARACTERS = 200;
export const MAX_NOTES_CHARACTERS = 10_000;
export const MAX_CATEGORY_CHARACTERS = 64;

export interface TextFields {
  name: string;
  notes: string | null;
  category: string | null;
}

const text = (vevent: ICAL.Component, name: string): string => {
  const value = vevent.getFirstPropertyValue(name);
  return value == null ? "" : String(value).trim();
};

/** At most `max` characters, never half a surrogate pair. */
function cut(value: string, max: number): string {
  if (value.length <= max) return value;
  const end = /[\uD800-\uDBFF]/.test(value[max - 1]) ? max - 1 : max;
  return value.slice(0, end);
}

/** The fields, and a sentence for each one that had to be cut. */
export function readFields(vevent: ICAL.Component): { fields: TextFields; cuts: string[] } {
  const cuts: string[] = [];
  const summary = text(vevent, "summary").replace(/\s+/g, " ");
  if (summary.length > MAX_NAME_CHARACTERS) cuts.push(`SUMMARY cut to ${MAX_NAME_CHARACTERS} characters`);
  const name = cut(summary, MAX_NAME_CHARACTERS).trim() || "Untitled";

  const location = text(vevent, "location");
  const url = text(vevent, "url");
  const lines = [text(vevent, "description"), location && `Location: ${location}`, url].filter(Boolean);
  const joined = lines.join("\n");
  if (joined.length > MAX_NOTES_CHARACTERS) {
    cuts.push(`notes (DESCRIPTION, LOCATION, URL) cut to ${MAX_NOTES_CHARACTERS} characters`);
  }
  const notes = joined ? cut(joined, MAX_NOTES_CHARACTERS) : null;

  const categories = vevent.getFirstProperty("categories")?.getValues() ?? [];
  const first = categories.map((c) => String(c).trim()).find(Boolean) ?? "";
  if (first.length > MAX_CATEGORY_CHARACTERS) cuts.push(`CATEGORIES cut to ${MAX_CATEGORY_CHARACTERS} characters`);
  const category = first ? cut(first, MAX_CATEGORY_CHARACTERS).trim() : null;
  return { fields: { name, notes, category }, cuts };
}
