/**
 * `GET /account/agents/{agentId}/calendars/{calendarId}`: a calendar of one of the signed-in
 * account's agents, private ones included, read-only, in the lenses of its public page (one
 * renderer for both: pages/load.ts, pages/layout.ts). The policy decides (`accountMayRead`);
 * whoever it refuses, signed in or not, gets the same 404. The answer depends on the session, so
 * it is never cached: `private, no-store` (the router's, on every /account answer), no ETag,
 * nothing in the shared page cache.
 */
import type { Request, Response } from "express";
import type { HttpDeps } from "../../http/deps.js";
import { loadAccountCalendar } from "../../domain/queries/account-calendars.js";
import { requestIdOf } from "../../http/request-id.js";
import { readSession, type AccountAuth } from "../../http/session.js";
import { html } from "../html.js";
import { renderPage } from "../layout.js";
import { loadAccountCalendarPage } from "../load.js";
import { renderHumanError } from "./views.js";

export const ACCOUNT_CALENDAR_ROUTE = "/account/agents/:agentId/calendars/:calendarId";

type CalendarRequest = Request<{ agentId: string; calendarId: string }>;

export function accountCalendarPage(deps: HttpDeps, accounts: AccountAuth) {
  return async (req: CalendarRequest, res: Response): Promise<void> => {
    const { account } = await readSession(req, res, accounts, deps.baseUrl);
    const { agentId, calendarId } = req.params;
    const seen = account ? await loadAccountCalendar(deps, account.uid, agentId, calendarId) : null;
    if (!seen) return calendarNotFound(res, req.originalUrl.split("?")[0]);
    const query = { view: req.query.view, date: req.query.date };
    // Nothing is cached, so every request computes: it takes a place as an anonymous page does.
    const body = await deps.expensiveReads(true, async () =>
      renderPage(
        await loadAccountCalendarPage(deps, seen.calendar, query, {
          href: "/account",
          label: `Your account · ${seen.agent.name}'s calendar`,
        }),
      ),
    );
    res.status(200).type("text/html; charset=utf-8").send(body);
  };
}

/**
 * One answer for every refusal: it tells nobody whether the calendar, or the agent, exists.
 * Signed out or in, it offers sign-in that comes back to this address (accountReturn).
 */
function calendarNotFound(res: Response, path: string): void {
  const message =
    "There is no calendar of your agents at this address. Check the link, and that you are signed in on your account page.";
  const signIn = html`<p><a class="button" href="/account?next=${encodeURIComponent(path)}">Sign in to see it</a> \
If it is a calendar of an agent you claimed, it opens here once you are signed in with that account.</p>`;
  res
    .status(404)
    .type("text/html; charset=utf-8")
    .send(renderHumanError(404, "Calendar not found", message, requestIdOf(res), signIn));
}
