/** How a calendar's pages look: owner colours per category, and the locale dates are written in. */
import { z } from "zod";
import { trimmedName } from "./common.js";

export const MAX_CATEGORY_COLOURS = 64;

const hexColour = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, { message: "must be a colour as #rrggbb, such as `#1f6b57`" })
  .overwrite((colour) => colour.toLowerCase());

const categoryName = trimmedName(64);

/**
 * `{"<category>": {"color": "#rrggbb"}}`: the colour a category takes on this calendar's pages.
 * Names are trimmed as an event's `category` is, so they match it.
 */
export const categoryColours = z
  .record(z.string(), z.strictObject({ color: hexColour }))
  .superRefine((colours, ctx) => {
    const names = Object.keys(colours);
    if (names.length > MAX_CATEGORY_COLOURS)
      ctx.addIssue({ code: "custom", message: `must name at most ${MAX_CATEGORY_COLOURS} categories` });
    for (const name of names) {
      const checked = categoryName.safeParse(name);
      if (!checked.success)
        ctx.addIssue({ code: "custom", path: [name], message: `a category name ${checked.error.issues[0].message}` });
    }
  })
  .overwrite((colours) => Object.fromEntries(Object.entries(colours).map(([name, c]) => [name.trim(), c])));

/** A BCP 47 language tag Intl formats dates in, stored in its canonical spelling (`de-de` -> `de-DE`). */
export const pageLocale = z
  .string()
  .max(35, { message: "must be at most 35 characters" })
  .refine((tag) => canonicalLocale(tag) !== null, {
    message: "must be a BCP 47 language tag such as `de`, `en-GB` or `fr-CA`",
  })
  .overwrite((tag) => canonicalLocale(tag) ?? tag);

function canonicalLocale(tag: string): string | null {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical && Intl.DateTimeFormat.supportedLocalesOf(canonical).length > 0 ? canonical : null;
  } catch {
    return null;
  }
}
