/** The claim and account pages' markup, in the calendar pages' look (pages/html.ts escapes every value). */
import type { AccountWebhook } from "../../domain/queries/account-webhooks.js";
import type { AccountAgent } from "../../domain/queries/accounts.js";
import type { HeldGrant } from "../../domain/queries/me.js";
import type { AgentRecord } from "../../domain/records.js";
import { DEFAULT_WEBHOOK_TYPES } from "../../domain/webhooks/records.js";
import type { Account, BrowserAuthConfig } from "../../http/session.js";
import { html, type SafeHtml } from "../html.js";
import { FAVICON_PATH } from "../head.js";
import { requestIdNote } from "../layout.js";
import { ASSETS_PATH, HUMANS_STYLESHEET_NAME } from "./assets.js";
import { accountAppRevokePath, accountCalendarPath, accountWebhookPath } from "./paths.js";
import { relativeTime } from "./relative-time.js";

/** What every page with a form needs: the CSRF value, and the sign-in module's name (null when not built). */
export interface PageContext {
  csrf: string;
  account: Account | null;
  auth: BrowserAuthConfig | null;
  script: string | null;
  /** The request's time: how far the times shown are from it. */
  now: Date;
}

/**
 * `2026-11-24 09:30 UTC` in a `<time class="instant">`, and with `now` how far that is ("in 3
 * days"). The page's script (web/local-times.ts) rewrites the time in the reader's zone; without
 * script it stays in UTC, named, as the server cannot know that zone. Agents get ISO instants from the API.
 */
export const when = (iso: string, now?: Date): SafeHtml =>
  html`<time class="instant" datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>\
${now ? ` (${relativeTime(new Date(iso), now)})` : ""}`;

export function documentHtml(title: string, body: SafeHtml, script: string | null): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${title}</title>
<link rel="stylesheet" href="${ASSETS_PATH}/${HUMANS_STYLESHEET_NAME}">
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
${script ? html`<script type="module" src="${ASSETS_PATH}/${script}"></script>\n` : ""}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${body}
</body>
</html>
`.value;
}

export function shell(eyebrow: string, heading: string, lede: SafeHtml | string, main: SafeHtml): SafeHtml {
  return html`<header class="masthead"><div class="wrap">
<p class="eyebrow">${eyebrow}</p>
<h1>${heading}</h1>
${lede ? html`<p class="lede">${lede}</p>` : ""}
</div></header>
<div class="wrap">
<main id="main" class="human">
${main}
</main>
<footer>Almanac, a calendar for agents · <a href="/">Home</a> · <a href="/account">Your account</a></footer>
</div>`;
}

export const csrfField = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}">`;

/** Who is signed in, and the sign-out button. */
export function signedInAs(ctx: PageContext & { account: Account }): SafeHtml {
  return html`<div class="who actions">Signed in as <strong>${ctx.account.email ?? ctx.account.uid}</strong>
<form class="inline-form" method="post" action="/account/sign-out">${csrfField(ctx.csrf)}\
<button class="button quiet" type="submit">Sign out</button></form></div>`;
}

/**
 * Sign-in: Google or a link by email, through the Firebase JS SDK (web/humans.ts). The
 * controls stay hidden until the module runs; without JavaScript, or without sign-in
 * configured, the page says so instead.
 */
export function signInPanel(ctx: PageContext, why: string): SafeHtml {
  if (!ctx.auth || !ctx.script) {
    return html`<section class="panel" aria-labelledby="signin-heading">
<h2 id="signin-heading">Sign in</h2>
<p>${why}</p>
<p>Sign-in is not available on this server: ${
      ctx.auth
        ? "its sign-in script was not built (run npm run build)."
        : "Firebase Authentication is not configured (see docs/deploy.md in the repository)."
    }</p>
</section>`;
  }
  const emulator = ctx.auth.emulatorUrl
    ? html`<p class="emulator-note">Local sign-in: the Firebase Auth emulator stands in for Google and for email, so no \
real account is used and no email is sent. Ask for an email link: it appears here, and in the terminal that runs \
the server.</p>\n`
    : "";
  return html`<section class="panel" id="signin" aria-labelledby="signin-heading" \
data-auth="${JSON.stringify(ctx.auth)}" data-csrf="${ctx.csrf}">
<h2 id="signin-heading">Sign in</h2>
<p>${why}</p>
<noscript><p>Signing in needs JavaScript. Turn it on for this site and reload the page.</p></noscript>
<div id="signin-controls" hidden>
${emulator}<div class="actions"><button class="button" type="button" id="signin-google">Sign in with Google</button></div>
<p class="or">Or get a sign-in link by email:</p>
<form id="signin-email" class="field">
<label for="signin-email-address">Email address</label>
<input id="signin-email-address" name="email" type="email" autocomplete="email" required>
<button class="button quiet" type="submit">Email me a link</button>
</form>
<p id="signin-emulator-link" class="emulator-link" hidden></p>
</div>
<p id="signin-status" class="signin-status" role="status" aria-live="polite"></p>
</section>`;
}

/**
 * An agent's calendars and their pages: a visible calendar's public page; a private one's page
 * on the account (`privatePage`), once the agent is claimed.
 */
function calendarList(grants: HeldGrant[], privatePage: ((calendarId: string) => string) | null): SafeHtml {
  if (grants.length === 0) return html`<p class="empty-state">No calendars.</p>`;
  const items = grants.map(({ calendar, role }) => {
    const page =
      calendar.visibility !== "private"
        ? html`<a href="/c/${calendar.slug}">/c/${calendar.slug}</a>`
        : privatePage
          ? html`<a href="${privatePage(calendar.id)}">private page</a>`
          : html`<span class="role">private: no page</span>`;
    return html`<li><strong>${calendar.name}</strong> ${page} <span class="role">${role}</span></li>`;
  });
  return html`<ul class="calendars">${items}</ul>`;
}

/** What Almanac is and what claiming grants, for someone who arrives from an agent's link. */
const CLAIM_LEDE =
  "Almanac is a calendar service for AI agents: an agent keeps its calendars here, and people read them as web pages " +
  "and calendar feeds. Claiming links this agent to your account, so that you can open its calendars (private ones " +
  "too), see its webhooks and apps, and revoke it at any time; it grants the agent nothing more.";

/** `/claim/{token}` of a link that can still be used. */
export function renderClaimPage(
  ctx: PageContext,
  claim: { token: string; agent: AgentRecord; grants: HeldGrant[]; expiresAt: string },
): string {
  const agent = claim.agent;
  const confirm = ctx.account
    ? html`<section class="panel" aria-labelledby="confirm-heading">
<h2 id="confirm-heading">Link this agent to your account</h2>
${signedInAs({ ...ctx, account: ctx.account })}
<p>Once linked, ${agent.name} is listed on your account page, where you can revoke it at any time.</p>
<form method="post" action="/claim/${claim.token}">${csrfField(ctx.csrf)}
<div class="actions"><button class="button" type="submit">Link ${agent.name} to my account</button></div>
</form>
</section>`
    : signInPanel(ctx, `Sign in to link ${agent.name} to your account.`);
  const main = html`<section class="panel" aria-labelledby="calendars-heading">
<h2 id="calendars-heading">Its calendars</h2>
${calendarList(claim.grants, null)}
</section>
${confirm}
<p class="who">This link works once, until ${when(claim.expiresAt, ctx.now)}.</p>`;
  return documentHtml(`Claim ${agent.name}`, shell("Claim an agent", agent.name, CLAIM_LEDE, main), ctx.script);
}

/** What a webhook sends: "every change" for the default types, else the types it names. */
function webhookTypes(types: readonly string[]): string {
  const all = DEFAULT_WEBHOOK_TYPES.every((t) => types.includes(t)) && types.length === DEFAULT_WEBHOOK_TYPES.length;
  return all ? "every change" : types.join(", ");
}

/** One webhook of the agent: where it posts, what, whether it is on, and the buttons that stop it. */
function webhookItem(
  ctx: PageContext,
  agent: AgentRecord,
  grants: HeldGrant[],
  hook: AccountWebhook,
  revoked: boolean,
) {
  const state = revoked ? "Sends nothing: the agent is revoked" : hook.enabled ? "Enabled" : "Disabled";
  const nameOf = (id: string) => grants.find((g) => g.calendar.id === id)?.calendar.name ?? id;
  const names = hook.calendars.map(nameOf);
  // The agent lost these (a grant revoked, a calendar made private); a revoked agent's state says it all.
  const lost = revoked
    ? []
    : hook.lost_access.filter((l) => l.reason === "no_access").map((l) => nameOf(l.calendar_id));
  const action = (verb: "disable" | "enable" | "delete", label: string, style: string) =>
    html`<form class="inline-form" method="post" action="${accountWebhookPath(agent.id, hook.id, verb)}">\
${csrfField(ctx.csrf)}<button class="button ${style}" type="submit" aria-label="${label} the webhook to ${hook.url}">\
${label}</button></form>`;
  const toggle = hook.enabled ? action("disable", "Disable", "quiet") : action("enable", "Enable", "quiet");
  const them = lost.length === 1 ? "it" : "them";
  const lostLine = lost.length
    ? html`<p class="who">Sends nothing more of ${lost.join(", ")}: the agent can no longer read ${them}.</p>\n`
    : "";
  return html`<li class="webhook">
<p class="webhook-url"><code>${hook.url}</code><span class="state">${state}</span></p>
${hook.description ? html`<p class="who">${hook.description}</p>\n` : ""}\
<p class="who">Calendars: ${names.join(", ")} · Sends: ${webhookTypes(hook.types)}</p>
${!hook.enabled && hook.disabled_reason ? html`<p class="who">Disabled: ${hook.disabled_reason}</p>\n` : ""}\
${lostLine}\
<div class="actions">${toggle} ${action("delete", "Delete", "danger")}</div>
</li>`;
}

/** The agent's webhooks, each with Disable or Enable and Delete. */
function webhookList(ctx: PageContext, { agent, grants, revoked, webhooks, moreWebhooks }: AccountAgent): SafeHtml {
  const list = webhooks.length
    ? html`<ul class="webhooks">${webhooks.map((hook) => webhookItem(ctx, agent, grants, hook, revoked))}</ul>`
    : html`<p class="who">No webhooks.</p>`;
  const more = moreWebhooks ? html`<p class="who">Only ${webhooks.length} of its webhooks are listed here.</p>` : "";
  return html`<h4>Webhooks</h4>
${list}${more}`;
}

/**
 * Revoke in two steps, without script: the summary opens what it does and a second button,
 * whose form carries the CSRF value.
 */
function confirmRevoke(ctx: PageContext, action: string, opener: SafeHtml, effect: string, confirm: string): SafeHtml {
  return html`<details class="confirm-revoke"><summary class="button danger">${opener}</summary>
<form method="post" action="${action}">${csrfField(ctx.csrf)}
<p class="who">${effect}</p>
<div class="actions"><button class="button danger" type="submit">${confirm}</button></div>
</form></details>`;
}

/** The OAuth clients that hold tokens for the agent, each with Revoke. */
function appList(ctx: PageContext, { agent, apps }: AccountAgent): SafeHtml {
  if (apps.length === 0) return html``;
  const items = apps.map((app) => {
    const reach = app.calendars ? `${app.calendars.length} calendar(s)` : "every calendar";
    return html`<li><strong>${app.client_name}</strong> <span class="who">${app.scopes.join(", ")} · ${reach} · \
since ${when(app.created_at, ctx.now)}</span>
${confirmRevoke(
  ctx,
  accountAppRevokePath(agent.id, app.credential_id),
  html`Revoke<span class="visually-hidden"> ${app.client_name}'s access to ${agent.name}</span>`,
  `${app.client_name}'s tokens for ${agent.name} stop working at once.`,
  `Yes, revoke ${app.client_name}'s access`,
)}</li>`;
  });
  return html`<h4>Apps</h4>
<ul class="apps">${items}</ul>`;
}

function agentCard(ctx: PageContext, card: AccountAgent): SafeHtml {
  const { agent, grants, revoked } = card;
  const state = revoked ? html`<span class="state">Revoked</span>` : "";
  const revoke = revoked
    ? html`<p class="who">Its tokens no longer work and its webhooks send nothing. Its calendars stay as they are.</p>`
    : confirmRevoke(
        ctx,
        `/account/agents/${agent.id}/revoke`,
        html`Revoke ${agent.name}…`,
        "Every token of this agent stops working at once, and its webhooks stop. This cannot be undone.",
        `Yes, revoke ${agent.name}`,
      );
  return html`<li class="agent">
<h3>${agent.name}${state}</h3>
<p class="meta"><code>${agent.id}</code><span>Created ${when(agent.created_at, ctx.now)}</span></p>
${calendarList(grants, (calendarId) => accountCalendarPath(agent.id, calendarId))}
${webhookList(ctx, card)}
${appList(ctx, card)}
${revoke}
</li>`;
}

/** `/account`, signed in: the agents, the onboard token form, sign-out. */
export function renderAccountPage(
  ctx: PageContext & { account: Account },
  list: { agents: AccountAgent[]; more: boolean },
  notice: string | null,
): string {
  const agents = list.agents.length
    ? html`<ul class="agents">${list.agents.map((a) => agentCard(ctx, a))}</ul>`
    : html`<p class="empty-state">No agents yet. Create an onboard token below and give it to your agent, or open \
the claim link an agent gives you.</p>`;
  const more = list.more ? html`<p class="who">Only ${list.agents.length} of your agents are listed here.</p>` : "";
  const main = html`${signedInAs(ctx)}
${notice ? html`<p class="notice" role="status">${notice}</p>` : ""}
<section aria-labelledby="agents-heading">
<h2 id="agents-heading">Agents</h2>
${agents}${more}
</section>
<section class="panel" aria-labelledby="onboard-heading">
<h2 id="onboard-heading">Onboard an agent</h2>
<p>An onboard token lets an agent mint its identity already linked to your account: no claim link needed. \
It works once, for 30 minutes, and is shown only once.</p>
<form method="post" action="/account/onboard-tokens">${csrfField(ctx.csrf)}
<div class="actions"><button class="button" type="submit">Create an onboard token</button></div>
</form>
</section>`;
  return documentHtml("Your agents", shell("Account", "Your agents", "", main), ctx.script);
}

/** `/account` or a claim link's sign-in, signed out. */
export function renderSignIn(ctx: PageContext, returning = false): string {
  const why = returning
    ? "Sign in to see the calendar you opened: once you are signed in, it opens."
    : "Sign in to see your agents and their webhooks, revoke them, and onboard new ones.";
  const main = signInPanel(ctx, why);
  return documentHtml(
    "Sign in",
    shell("Account", "Your agents", "Agents you link to your account are listed here.", main),
    ctx.script,
  );
}

/** The answer to creating an onboard token: the token, once, and what to tell the agent. */
export function renderOnboardToken(
  ctx: PageContext & { account: Account },
  token: { token: string; expiresAt: string },
  baseUrl: string,
): string {
  const request = `POST ${baseUrl}/v1/mint
Content-Type: application/json
Idempotency-Key: <any new key>

{"name": "<your agent's name>", "onboard_token": "${token.token}"}`;
  const main = html`${signedInAs(ctx)}
<section class="panel" aria-labelledby="token-heading">
<h2 id="token-heading">Your onboard token</h2>
<code class="token" id="onboard-token">${token.token}</code>
<p>It is shown only now, works once, and expires at ${when(token.expiresAt, ctx.now)}.</p>
<h3>Tell your agent</h3>
<p>Mint with <code>onboard_token</code>: the new agent is linked to your account at once, and its answer has \
<code>claim_url: null</code>. Agents read how in <a href="/docs/start.md">/docs/start.md</a>.</p>
<pre class="tell">${request}</pre>
</section>
<p><a href="/account">Back to your agents</a></p>`;
  return documentHtml("Your onboard token", shell("Account", "Onboard an agent", "", main), ctx.script);
}

/** An error as a page, with the status the request gets. */
export function renderHumanError(
  status: number,
  heading: string,
  message: string,
  requestId?: string,
  action: SafeHtml | "" = "",
): string {
  const body = html`<div class="wrap"><main id="main" class="error-page">
<p class="status">Error ${status}</p>
<h1>${heading}</h1>
<p>${message}</p>
${action}<p><a href="/account">Your account</a> · <a href="/">Almanac home</a></p>
${requestIdNote(requestId)}
</main></div>`;
  return documentHtml(heading, body, null);
}
