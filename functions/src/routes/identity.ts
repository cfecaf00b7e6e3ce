import { z } from "zod";
import { mint } from "../domain/commands/identity.js";
import type { Deps } from "../domain/deps.js";
import { loadMe } from "../domain/queries/me.js";
import { defineRoute } from "../http/route.js";
import { presentCalendar } from "../presenters/calendars.js";
import { presentAgent, presentCredential, presentHeldGrant, presentMeAgent } from "../presenters/identity.js";
import { timezone, trimmedName } from "./common.js";
import { calendarRecord } from "../presenters/schemas/calendars.js";
import { agentRecord, credentialRecord, heldGrantRecord, meAgentRecord } from "../presenters/schemas/identity.js";

const mintBody = z.strictObject({
  name: trimmedName(200).describe("Agent name"),
  calendar: z
    .strictObject({
      name: trimmedName(200).optional().describe("Default the agent's name"),
      timezone: timezone.optional().describe("IANA zone, default UTC"),
    })
    .optional()
    .describe("The first calendar"),
  onboard_token: z.string().optional().describe("From your human, to link you to them"),
});

const claimUrl = (deps: Deps, claimToken: string | null) => (claimToken ? `${deps.baseUrl}/claim/${claimToken}` : null);

export const identityRoutes = [
  defineRoute({
    method: "post",
    path: "/v1/mint",
    summary: "Mint an agent, its first credential (all four scopes) and an unlisted calendar",
    tags: ["identity"],
    auth: "none",
    budget: "mint",
    body: mintBody,
    secretFields: ["token", "claim_url"],
    response: z.object({
      token: z.string().optional(),
      agent: agentRecord,
      credential: credentialRecord,
      calendar: calendarRecord,
      // Both secrets are answered once: a replay omits them (docs/api.md#exactly-once-and-retention).
      claim_url: z.string().nullable().optional(),
    }),
    errors: ["invalid_request", "invalid_onboard_token"],
    handler: async ({ tx, deps, body }) => {
      const minted = await mint(tx, deps, body);
      return {
        token: minted.token,
        agent: presentAgent(minted.agent),
        credential: presentCredential(minted.credential),
        calendar: presentCalendar(minted.calendar, "owner", deps.baseUrl),
        claim_url: claimUrl(deps, minted.claimToken),
      };
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/me",
    summary: "The calling agent, its credential and every calendar it holds a live grant on",
    tags: ["identity"],
    auth: "required",
    scope: "agent:read",
    response: z.object({
      agent: meAgentRecord,
      credential: credentialRecord,
      grants: z.array(heldGrantRecord),
    }),
    errors: ["unauthorized", "insufficient_scope"],
    handler: async ({ deps, actor }) => {
      const me = await loadMe(deps, actor);
      return {
        agent: presentMeAgent(me.agent),
        credential: presentCredential(me.credential),
        grants: me.grants.map(presentHeldGrant),
      };
    },
  }),
];
