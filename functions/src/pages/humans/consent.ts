/**
 * The consent page of the authorization server of /mcp (docs/mcp.md#authorization):
 *   GET  /account/authorize/{requestId}   sign-in, then the agent, scopes and calendars to allow
 *   POST /account/authorize/{requestId}   allow (a code) or deny, then back to the app's redirect URI
 * The SDK's `/authorize` (oauth/provider.ts) checked the client and kept the request; the
 * answer goes to the redirect URI kept with it, never one from this form.
 */
import type { Request, RequestHandler, Response, Router } from "express";
import { allowAuthorization, denyAuthorization, openRequest, type Consent } from "../../domain/oauth/consent.js";
import { listAccountAgents, type AccountAgent } from "../../domain/queries/accounts.js";
import { isIdOf } from "../../domain/ids.js";
import { SCOPES, type Scope } from "../../domain/types.js";
import type { HttpDeps } from "../../http/deps.js";
import type { Account } from "../../http/session.js";
import { renderConsentPage } from "./consent-views.js";
import type { PageContext } from "./views.js";

export const CONSENT_ROUTE = "/account/authorize/:requestId";

type ConsentRequest = Request<{ requestId: string }>;

/** What the humans' router lends the consent page: its session and its answers. */
export interface ConsentPageKit {
  form: RequestHandler;
  context: (req: Request, res: Response) => Promise<PageContext>;
  signedInContext: (req: Request, res: Response) => Promise<(PageContext & { account: Account }) | null>;
  sendPage: (res: Response, status: number, body: string) => void;
  sendHumanError: (res: Response, status: number, heading: string, message: string) => void;
}

export function mountConsentPage(router: Router, deps: HttpDeps, kit: ConsentPageKit): void {
  router.get(CONSENT_ROUTE, async (req: ConsentRequest, res) => {
    const request = await openRequest(deps.store, deps.clock(), req.params.requestId);
    const ctx = await kit.context(req, res);
    const agents = ctx.account ? (await listAccountAgents(deps, ctx.account.uid)).agents : [];
    // The form's answer redirects to the app: the page's form-action must allow its address.
    res.setHeader(
      "Content-Security-Policy",
      String(res.getHeader("Content-Security-Policy")).replace(
        "form-action 'self'",
        `form-action 'self' ${formTarget(request.data.redirect_uri)}`,
      ),
    );
    const view = {
      requestId: req.params.requestId,
      clientName: request.data.client_name,
      redirectUri: request.data.redirect_uri,
      scopes: request.data.scopes,
      expiresAt: request.data.expires_at,
    };
    kit.sendPage(res, 200, renderConsentPage(ctx, view, agents));
  });

  router.post(CONSENT_ROUTE, kit.form, async (req: ConsentRequest, res) => {
    const ctx = await kit.signedInContext(req, res);
    if (!ctx) return;
    const { requestId } = req.params;
    const fields = (req.body ?? {}) as Record<string, unknown>;
    if (fields.decision === "deny") {
      const denied = await deps.store.runTransaction((tx) => denyAuthorization(tx, deps, requestId));
      return res.redirect(303, withParams(denied.redirectUri, denied.params));
    }
    const agents = (await listAccountAgents(deps, ctx.account.uid)).agents;
    const consent = consentOf(fields, agents);
    if (typeof consent === "string") return kit.sendHumanError(res, 400, "Check your choices", consent);
    const allowed = await deps.store.runTransaction((tx) =>
      allowAuthorization(tx, deps, ctx.account.uid, requestId, consent),
    );
    res.redirect(303, withParams(allowed.redirectUri, allowed.params));
  });
}

const list = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v): v is string => typeof v === "string");

/** The form's choices, or what is wrong with them in the person's words. */
function consentOf(fields: Record<string, unknown>, agents: AccountAgent[]): Consent | string {
  const scopes = list(fields.scope).filter((scope): scope is Scope => (SCOPES as readonly string[]).includes(scope));
  if (scopes.length === 0) return "Tick at least one thing the app may do, or deny the request.";
  const calendars = list(fields.calendar);
  if (fields.agent === "new") {
    const name = typeof fields.new_agent_name === "string" ? fields.new_agent_name.trim() : "";
    if (!name || name.length > 100) return "Give the new agent a name (up to 100 characters).";
    if (calendars.length) return "A new agent has only its first calendar: leave the calendars unticked.";
    return { agent: { newAgentName: name }, scopes, calendars: null };
  }
  const card = agents.find((a) => a.agent.id === fields.agent && !a.revoked);
  if (!isIdOf("agt", fields.agent) || !card) return "Choose one of your agents, or a new one.";
  const held = new Set(card.grants.map((grant) => grant.calendar.id));
  if (calendars.some((id) => !held.has(id)))
    return `Tick only calendars of ${card.agent.name}, the agent you chose, or none for all of them.`;
  return { agent: { agentId: card.agent.id }, scopes, calendars: calendars.length ? calendars : null };
}

function withParams(redirectUri: string, params: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}

/** The CSP source of a redirect URI: its origin on the web, its scheme for a native app. */
function formTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === "https:" || url.protocol === "http:" ? url.origin : url.protocol;
}
