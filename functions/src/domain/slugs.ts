import type { Transaction } from "../storage/port.js";
import { errors } from "./errors.js";
import { randomSlugSuffix } from "./ids.js";
import { paths } from "./paths.js";

export const SLUG_PATTERN = /^[a-z0-9-]{3,63}$/;
const BASE_LENGTH = 50;
const SUGGESTIONS = 3;

/** "Launch Plan Q3" -> "launch-plan-q3" (docs/api.md#calendars-and-slugs). */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, BASE_LENGTH)
    .replace(/-+$/g, "");
}

const withSuffix = (base: string): string => (base ? `${base}-${randomSlugSuffix(4)}` : randomSlugSuffix(6));

/**
 * Chooses a free slug inside the transaction. A requested slug that is taken (by another
 * calendar, now or ever) is 409 slug_taken with suggestions checked to be free; a
 * generated one gets a random suffix. `collection` is `slugs` for calendars, `view_slugs` for views.
 */
export async function claimSlug(
  tx: Transaction,
  collection: "slugs" | "view_slugs",
  opts: { requested?: string; name: string; ownerId: string },
): Promise<string> {
  const base = slugify(opts.name);
  const first = opts.requested ?? (base.length >= 3 ? base : withSuffix(base));
  const candidates = [first, ...Array.from({ length: SUGGESTIONS + 2 }, () => withSuffix(opts.requested ?? base))];
  const slugPath = collection === "slugs" ? paths.slug : paths.viewSlug;
  const docs = await tx.getAll(candidates.map(slugPath));
  const isFree = (i: number) => !docs[i] || docs[i].data.owner_id === opts.ownerId;
  if (isFree(0)) return first;
  const free = candidates.filter((_, i) => i > 0 && isFree(i));
  if (opts.requested === undefined && free.length > 0) return free[0];
  throw errors.slugTaken(first, free.slice(0, SUGGESTIONS));
}
