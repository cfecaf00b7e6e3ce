import { IANAZone } from "luxon";
import { z } from "zod";
import { LENSES, ROLES, VISIBILITIES } from "../domain/types.js";
/** Schemas shared by several routers. */
export const timezone = z
    .string()
    .refine((zone) => IANAZone.isValidZone(zone), { message: "must be an IANA time zone such as `Europe/Berlin` or `UTC`" });
export const lens = z.enum(LENSES);
export const role = z.enum(ROLES);
export const visibility = z.enum(VISIBILITIES);
export const trimmedName = (max) => z
    .string()
    .trim()
    .min(1, { message: "must not be empty" })
    .max(max, { message: `must be at most ${max} characters` });
export const calendarParams = z.object({ calendarId: z.string() });
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
//# sourceMappingURL=common.js.map