/**
 * The page's one Subscribe control: a `<details>` disclosure, so it opens without script,
 * offering the calendar apps' own ways in (the links the API gives as `subscribe`,
 * presenters/subscribe.ts) and the feed's address in a read-only field to select and copy
 * (copying by button would need script).
 */
import type { PresentedSubscribeLinks } from "../presenters/schemas/subscribe.js";
import { subscribeLinks } from "../presenters/subscribe.js";
import { html, type SafeHtml } from "./html.js";

/** The feed's absolute https address and the links that add it to a calendar app. */
export type SubscribeChoices = NonNullable<PresentedSubscribeLinks> & { feed: string };

export const subscribeChoices = (feedUrl: string, name: string): SubscribeChoices => ({
  feed: feedUrl,
  ...subscribeLinks(feedUrl, name),
});

export function subscribeControl(choices: SubscribeChoices): SafeHtml {
  return html`<details class="subscribe">
<summary>Subscribe</summary>
<div class="subscribe-menu">
<p>Add this calendar to your calendar app; it keeps itself up to date.</p>
<ul>
<li><a href="${choices.webcal}">Apple Calendar or Outlook on the desktop</a></li>
<li><a href="${choices.google}">Google Calendar</a></li>
<li><a href="${choices.outlook}">Outlook on the web</a></li>
</ul>
<label for="feed-address">Or copy the feed address into any other calendar app</label>
<input id="feed-address" class="feed-address" type="text" readonly value="${choices.feed}">
<p class="hint">Select the address and copy it; calendar apps call this "subscribe from URL" or "add from web".</p>
</div>
</details>`;
}
