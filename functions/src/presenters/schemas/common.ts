import { z } from "zod";
import { LENSES, ROLES, VISIBILITIES } from "../../domain/types.js";

/** Enums that answers show and requests take: the routes' schemas reuse these. */
export const lens = z.enum(LENSES);
export const role = z.enum(ROLES);
export const visibility = z.enum(VISIBILITIES);
