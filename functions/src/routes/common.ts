import { IANAZone } from "luxon";
import { z } from "zod";
import { isIdOf, type IdPrefix } from "../domain/ids.js";
import { LENSES, ROLES, VISIBILITIES } from "../domain/types.js";

/** Schemas shared by several routers. */
export const timezone = z
  .string()
  .refine((zone) => IANAZone.isValidZone(zone), { message: "must be an IANA time zone such as `Europe/Berlin` or `UTC`" });

export const lens = z.enum(LENSES);
export const role = z.enum(ROLES);
export const visibility = z.enum(VISIBILITIES);
export const trimmedName = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { message: "must not be empty" })
    .max(max, { message: `must be at most ${max} characters` });

/**
 * An id of one kind, in a path or a body (DECISIONS section 1): its prefix, `_`, then letters
 * and digits. A path parameter that fails is 404 (http/route.ts), a body field 400.
 */
export const idOf = (prefix: IdPrefix) =>
  z
    .string()
    // The pattern documents the shape in /openapi.json; isIdOf (domain/ids.ts) is the rule.
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9]+$`), { message: `must be an id as the API returned it: \`${prefix}_\` followed by letters and digits` })
    .refine((value) => isIdOf(prefix, value), { message: "is longer than any id the API issues" });

export const calendarParams = z.object({ calendarId: idOf("cal") });

/** `limit` and `cursor` of every list endpoint (DECISIONS section 1). */
export const pageQuery = {
  limit: z.coerce
    .number({ message: "must be an integer from 1 to 1000" })
    .int({ message: "must be an integer from 1 to 1000" })
    .min(1, { message: "must be an integer from 1 to 1000" })
    .max(1000, { message: "must be an integer from 1 to 1000" })
    .default(1000),
  cursor: z.string().optional(),
};

export const deleted = z.object({ deleted: z.string() });

export const calendarRecord = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  timezone: z.string(),
  visibility,
  purpose: z.string().nullable(),
  default_view: lens.nullable(),
  views: z.array(lens).nullable(),
  url: z.string(),
  role: role.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
