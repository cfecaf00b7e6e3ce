/** Stored records: what the commands write and the presenters read. */
export const ROLES = ["reader", "writer", "owner"];
export const LENSES = ["month", "week", "schedule", "timeline"];
export const VISIBILITIES = ["unlisted", "public", "private"];
export const SCOPES = ["agent:read", "calendar:read", "calendar:write", "grants:manage"];
//# sourceMappingURL=types.js.map