/** The consent page of the authorization server (consent.ts): which agent, which scopes, which calendars. */
import type { AccountAgent } from "../../domain/queries/accounts.js";
import type { Scope } from "../../domain/types.js";
import type { Account } from "../../http/session.js";
import { html, type SafeHtml } from "../html.js";
import { csrfField, documentHtml, shell, signedInAs, signInPanel, when, type PageContext } from "./views.js";

/** What each scope lets the app do, in the words the person reads. */
const SCOPE_WORDS: Record<Scope, string> = {
  "agent:read": "See the agent and the calendars it holds",
  "calendar:read": "Read its calendars' events, private ones included",
  "calendar:write": "Create calendars; add, change and delete events",
  "grants:manage": "Share its calendars with other agents and answer access requests",
};

export interface ConsentView {
  requestId: string;
  clientName: string;
  redirectUri: string;
  scopes: Scope[];
  expiresAt: string;
}

/** Where the app will receive the answer: its host, or its scheme for a native app. */
const destination = (redirectUri: string): string => {
  const url = new URL(redirectUri);
  return url.host || url.protocol;
};

function agentChoices(agents: AccountAgent[]): SafeHtml {
  const live = agents.filter((card) => !card.revoked);
  const items = live.map(
    ({ agent }, i) => html`<div class="choice"><input type="radio" name="agent" id="agent-${agent.id}" \
value="${agent.id}"${i === 0 ? " checked" : ""}><label for="agent-${agent.id}">${agent.name} \
<code>${agent.id}</code></label></div>`,
  );
  return html`<fieldset class="choices"><legend>Act as</legend>
${items}
<div class="choice"><input type="radio" name="agent" id="agent-new" value="new"${live.length ? "" : " checked"}>\
<label for="agent-new">A new agent, linked to your account, named</label>
<input type="text" name="new_agent_name" id="new-agent-name" maxlength="100" aria-label="Name of the new agent"></div>
</fieldset>`;
}

function scopeChoices(scopes: Scope[]): SafeHtml {
  const items = scopes.map(
    (scope) => html`<div class="choice"><input type="checkbox" name="scope" id="scope-${scope.replace(":", "-")}" \
value="${scope}" checked><label for="scope-${scope.replace(":", "-")}">${SCOPE_WORDS[scope]} <code>${scope}</code>\
</label></div>`,
  );
  return html`<fieldset class="choices"><legend>Allow it to</legend>
${items}
</fieldset>`;
}

function calendarChoices(agents: AccountAgent[]): SafeHtml {
  const groups = agents
    .filter((card) => !card.revoked && card.grants.length > 0)
    .map(
      ({ agent, grants }) => html`<p class="who">${agent.name}</p>
${grants.map(
  ({ calendar }) => html`<div class="choice"><input type="checkbox" name="calendar" id="calendar-${calendar.id}" \
value="${calendar.id}"><label for="calendar-${calendar.id}">${calendar.name}</label></div>`,
)}`,
    );
  return html`<fieldset class="choices"><legend>Only these calendars (optional)</legend>
<p class="who">Leave all unticked to let it reach every calendar of the agent. Tick only calendars of the agent \
you chose above.</p>
${groups}
</fieldset>`;
}

/** `/account/authorize/{id}`: signed out, the sign-in; signed in, the choices and Allow or Deny. */
export function renderConsentPage(ctx: PageContext, view: ConsentView, agents: AccountAgent[]): string {
  const name = view.clientName;
  const lede = html`<strong>${name}</strong> asks to use Almanac as one of your agents. \
It will receive the answer at <code>${destination(view.redirectUri)}</code>.`;
  const main = ctx.account
    ? consentForm({ ...ctx, account: ctx.account }, view, agents)
    : signInPanel(ctx, `Sign in to connect ${name}.`);
  return documentHtml(`Connect ${name}`, shell("Connect an app", `Connect ${name}`, lede, main), ctx.script);
}

function consentForm(ctx: PageContext & { account: Account }, view: ConsentView, agents: AccountAgent[]): SafeHtml {
  return html`${signedInAs(ctx)}
<form method="post" action="/account/authorize/${view.requestId}" class="panel" aria-labelledby="consent-heading">
<h2 id="consent-heading">What ${view.clientName} may do</h2>
${csrfField(ctx.csrf)}
${agentChoices(agents)}
${scopeChoices(view.scopes)}
${calendarChoices(agents)}
<p class="who">You can revoke it at any time on your account page. This request is open until ${when(view.expiresAt, ctx.now)}.</p>
<div class="actions"><button class="button" type="submit" name="decision" value="allow">Allow</button>
<button class="button quiet" type="submit" name="decision" value="deny">Deny</button></div>
</form>`;
}
