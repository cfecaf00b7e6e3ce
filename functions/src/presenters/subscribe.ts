import type { PresentedSubscribeLinks } from "./schemas/subscribe.js";

/**
 * Where a calendar app subscribes to a feed (`feedUrl`, absolute), so an agent can hand a human
 * a link rather than a scheme to guess: `webcal:` opens the system's calendar app (Apple
 * Calendar, Outlook on the desktop), Google Calendar takes the `webcal:` address by URL, and
 * Outlook on the web the feed's own address with the name to show.
 */
export function subscribeLinks(feedUrl: string, name: string): NonNullable<PresentedSubscribeLinks> {
  const webcal = feedUrl.replace(/^https?:/, "webcal:");
  return {
    webcal,
    google: `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(webcal)}`,
    outlook:
      `https://outlook.live.com/calendar/0/addfromweb?url=${encodeURIComponent(feedUrl)}` +
      `&name=${encodeURIComponent(name)}`,
  };
}
