import { z } from "zod";
import { requestAccess, resolveAccessRequest } from "../domain/commands/access-requests.js";
import { listAccessRequests } from "../domain/queries/grants.js";
import { ACCESS_REQUEST_STATUSES } from "../domain/types.js";
import { defineRoute } from "../http/route.js";
import { presentAccessRequest } from "../presenters/access-requests.js";
import { calendarParams, freeText, idOf, pageQuery, role } from "./common.js";
import { accessRequestRecord } from "../presenters/schemas/access-requests.js";

export const accessRequestRoutes = [
  defineRoute({
    method: "get",
    path: "/v1/calendars/{calendarId}/access-requests",
    summary: "List the calendar's access requests, newest first; `status` filters",
    tags: ["access requests"],
    auth: "required",
    calendar: "grants.manage",
    params: calendarParams,
    query: z.object({ status: z.enum(ACCESS_REQUEST_STATUSES).optional().describe("Only this status"), ...pageQuery }),
    response: z.object({ access_requests: z.array(accessRequestRecord), next_cursor: z.string().nullable() }),
    errors: ["invalid_request", "unauthorized"],
    handler: async ({ deps, params, query }) => {
      const page = await listAccessRequests(deps, params.calendarId, { status: query.status }, query);
      return { access_requests: page.items.map(presentAccessRequest), next_cursor: page.nextCursor };
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/calendars/{calendarId}/access-requests",
    summary: "Ask the owners for a role (default reader); a repeat while one is pending returns it",
    tags: ["access requests"],
    auth: "required",
    calendar: "access.request",
    params: calendarParams,
    body: z.strictObject({
      role: role.default("reader").describe("Role wanted"),
      message: freeText(1000).optional().describe("To the owners"),
    }),
    bodyOptional: true,
    response: accessRequestRecord,
    errors: ["invalid_request", "already_granted", "unauthorized"],
    handler: async ({ tx, deps, actor, params, body }) => {
      const request = await requestAccess(tx, deps, actor, params.calendarId, {
        role: body.role,
        message: body.message ?? null,
      });
      return presentAccessRequest(request);
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/calendars/{calendarId}/access-requests/{requestId}",
    summary: "Resolve a pending access request: `approve` creates or raises the grant, `deny` does not",
    tags: ["access requests"],
    auth: "required",
    calendar: "grants.manage",
    params: z.object({
      calendarId: idOf("cal").describe("Calendar id"),
      requestId: idOf("areq").describe("Access request id"),
    }),
    body: z.strictObject({ resolution: z.enum(["approve", "deny"]).describe("Your answer") }),
    response: accessRequestRecord,
    errors: ["invalid_request", "already_resolved", "unauthorized", "not_found"],
    handler: async ({ tx, deps, actor, params, body }) => {
      const request = await resolveAccessRequest(tx, deps, actor, params.calendarId, params.requestId, body.resolution);
      return presentAccessRequest(request);
    },
  }),
];
