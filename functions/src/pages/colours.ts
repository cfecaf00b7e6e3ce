/**
 * Category colours. A category's colour is its owner's (`categories` on the calendar record),
 * else one of a fixed palette picked by a hash of its name alone: the same on every lens,
 * period, view, layer and event page, whatever else is on screen. Two names may share a
 * palette colour; an owner who minds sets one of them.
 *
 * The colour is never the text's: chips tint their background a little with it and draw it
 * as a bar or swatch beside the text, which keeps the theme's text colour. That holds the
 * text's contrast for any owner colour, in both themes.
 */
import type { CategoryColours } from "../domain/records.js";

/** Light-theme colours, then their dark-theme partners: twelve hues apart from each other on both backgrounds. */
export const LIGHT_PALETTE = [
  "#2563eb",
  "#c2410c",
  "#15803d",
  "#7c3aed",
  "#be123c",
  "#0f766e",
  "#92400e",
  "#a21caf",
  "#0369a1",
  "#4d7c0f",
  "#475569",
  "#db2777",
];
export const DARK_PALETTE = [
  "#60a5fa",
  "#fb923c",
  "#4ade80",
  "#a78bfa",
  "#fb7185",
  "#2dd4bf",
  "#fbbf24",
  "#e879f9",
  "#38bdf8",
  "#a3e635",
  "#94a3b8",
  "#f472b6",
];
export const PALETTE_SIZE = LIGHT_PALETTE.length;

/** The palette slot of a category name: FNV-1a over its UTF-16 code units. */
export function paletteSlot(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % PALETTE_SIZE;
}

const OWN_PREFIX = "own-";

/** The class that colours a category on a calendar's pages: `own-1f6b57` for an owner's colour, else `cat-{slot}`. */
export function colourClasses(owned: CategoryColours | null | undefined): (category: string) => string {
  return (category) => {
    const own = owned && Object.hasOwn(owned, category) ? owned[category].color : null;
    return own ? `${OWN_PREFIX}${own.slice(1)}` : `cat-${paletteSlot(category)}`;
  };
}

const OWN_SHEET = /^colours\.([0-9a-f]{6}(?:-[0-9a-f]{6}){0,63})\.css$/;

/**
 * The stylesheet of the owner colours among `classes`, or null when there are none. Its name
 * holds the colours themselves, so it needs no read and may be cached for good; the CSP allows
 * no inline style.
 */
export function ownColoursSheet(area: "c" | "v", classes: Iterable<string | null>): string | null {
  const own = [...new Set([...classes].filter((c): c is string => c?.startsWith(OWN_PREFIX) ?? false))].sort();
  if (own.length === 0) return null;
  return `/${area}/_assets/colours.${own.map((c) => c.slice(OWN_PREFIX.length)).join("-")}.css`;
}

/** The rules of a colour sheet's file name, or null when the name is not one. */
export function ownColoursRules(file: string): string | null {
  const match = OWN_SHEET.exec(file);
  if (!match) return null;
  return match[1]
    .split("-")
    .map((hex) => `.${OWN_PREFIX}${hex}{--cat:#${hex}}`)
    .join("\n");
}
