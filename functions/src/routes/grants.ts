import { z } from "zod";
import { revokeGrant, setGrant } from "../domain/commands/grants.js";
import { listGrants } from "../domain/queries/grants.js";
import { defineRoute } from "../http/route.js";
import { presentGrant } from "../presenters/grants.js";
import { calendarParams, deleted, idOf, pageQuery, role } from "./common.js";
import { grantRecord } from "../presenters/schemas/grants.js";

export const grantRoutes = [
  defineRoute({
    method: "get",
    path: "/v1/calendars/{calendarId}/grants",
    summary: "List the calendar's grants, live and revoked (tombstones keep `revoked_at`), oldest first",
    tags: ["grants"],
    auth: "required",
    calendar: "grants.manage",
    params: calendarParams,
    query: z.object(pageQuery),
    response: z.object({ grants: z.array(grantRecord), next_cursor: z.string().nullable() }),
    errors: ["invalid_request", "unauthorized"],
    handler: async ({ deps, params, query }) => {
      const page = await listGrants(deps, params.calendarId, query);
      return { grants: page.items.map(presentGrant), next_cursor: page.nextCursor };
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/calendars/{calendarId}/grants",
    summary: "Grant an agent a role, or change the role of its live grant in place (same id)",
    tags: ["grants"],
    auth: "required",
    // The command judges the caller's role again, with the role it reads next to the owners it
    // counts for the last-owner rule (docs/api.md#grants-and-access-requests): the same transaction, the same answer.
    calendar: "grants.manage",
    params: calendarParams,
    body: z.strictObject({ agent_id: idOf("agt").describe("Agent id"), role: role.describe("Role to hold") }),
    response: grantRecord,
    errors: ["invalid_request", "last_owner", "unauthorized"],
    handler: async ({ tx, deps, actor, params, body }) =>
      presentGrant(await setGrant(tx, deps, actor, params.calendarId, body)),
  }),
  defineRoute({
    method: "delete",
    path: "/v1/calendars/{calendarId}/grants/{grantId}",
    summary: "Revoke a live grant; it stays in the list as a tombstone",
    tags: ["grants"],
    auth: "required",
    calendar: "grants.manage",
    params: z.object({ calendarId: idOf("cal").describe("Calendar id"), grantId: idOf("grt").describe("Grant id") }),
    response: deleted,
    errors: ["last_owner", "unauthorized", "not_found"],
    handler: async ({ tx, deps, actor, params }) => {
      const grant = await revokeGrant(tx, deps, actor, params.calendarId, params.grantId);
      return { deleted: grant.id };
    },
  }),
];
