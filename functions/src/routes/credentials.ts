import { z } from "zod";
import { createCredential, revokeCredential } from "../domain/commands/identity.js";
import { listCredentials } from "../domain/queries/me.js";
import { defineRoute } from "../http/route.js";
import { presentCredential } from "../presenters/identity.js";
import { idOf, trimmedName } from "./common.js";
import { credentialRecord } from "../presenters/schemas/identity.js";

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
    summary: "Create another credential for the calling agent (agent:read, calendar:read, calendar:write)",
    tags: ["identity"],
    auth: "required",
    body: z.strictObject({
      label: trimmedName(100).optional().describe("What it is for"),
    }),
    bodyOptional: true,
    secretFields: ["token"],
    response: z.object({ token: z.string().optional(), credential: credentialRecord }),
    errors: ["invalid_request", "unauthorized", "quota_exceeded"],
    handler: async ({ tx, deps, actor, body }) => {
      const { token, credential } = await createCredential(tx, deps, actor, body.label ?? null);
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
