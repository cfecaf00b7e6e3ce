import { z } from "zod";
import { createCredential, MAX_CREDENTIAL_CALENDARS, revokeCredential } from "../domain/commands/identity.js";
import { SCOPES } from "../domain/types.js";
import { listCredentials } from "../domain/queries/me.js";
import { defineRoute } from "../http/route.js";
import { presentCredential } from "../presenters/identity.js";
import { calendarIdList, idOf, trimmedName } from "./common.js";
import { credentialRecord } from "../presenters/schemas/identity.js";

const scopes = z
  .array(z.enum(SCOPES))
  .min(1, { message: "must name at least one scope; omit `scopes` for this credential's own" })
  .refine((s) => new Set(s).size === s.length, { message: "must list distinct scopes" })
  .describe("Scopes, each one this credential holds; default agent:read, calendar:read, calendar:write");
const calendars = calendarIdList(MAX_CREDENTIAL_CALENDARS).describe(
  "The only calendars it reaches; default this credential's own",
);
const expiresAt = z.iso
  .datetime({ offset: true, message: "must be an ISO 8601 instant with an offset, e.g. 2026-12-01T00:00:00Z" })
  .describe("When its token stops working; default never, or this credential's own expiry");

export const credentialRoutes = [
  defineRoute({
    method: "get",
    path: "/v1/agent-credentials",
    summary: "List the agent's credentials, active and revoked, newest first (metadata only)",
    tags: ["identity"],
    auth: "required",
    scope: "agent:read",
    response: z.object({ credentials: z.array(credentialRecord) }),
    errors: ["unauthorized", "insufficient_scope"],
    handler: async ({ deps, actor }) => ({
      credentials: (await listCredentials(deps, actor)).map(presentCredential),
    }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/agent-credentials",
    summary:
      "Create another credential for the calling agent, with at most the scopes, calendars and lifetime of the calling one",
    tags: ["identity"],
    auth: "required",
    body: z.strictObject({
      label: trimmedName(100).optional().describe("What it is for"),
      scopes: scopes.optional(),
      calendars: calendars.optional(),
      expires_at: expiresAt.optional(),
    }),
    bodyOptional: true,
    secretFields: ["token"],
    response: z.object({ token: z.string().optional(), credential: credentialRecord }),
    errors: ["invalid_request", "unauthorized", "insufficient_scope", "not_found", "quota_exceeded"],
    handler: async ({ tx, deps, actor, body }) => {
      const { token, credential } = await createCredential(tx, deps, actor, { ...body, label: body.label ?? null });
      return { token, credential: presentCredential(credential) };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/v1/agent-credentials/{credentialId}",
    summary: "Revoke a credential of the calling agent; its token is refused at once",
    tags: ["identity"],
    auth: "required",
    params: z.object({ credentialId: idOf("cred").describe("Credential id") }),
    response: z.object({ revoked: z.string() }),
    errors: ["unauthorized", "not_found", "last_credential"],
    handler: async ({ tx, deps, actor, params }) => {
      const revoked = await revokeCredential(tx, deps, actor, params.credentialId);
      return { revoked: revoked.id };
    },
  }),
];
