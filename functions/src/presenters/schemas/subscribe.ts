import { z } from "zod";

/** Links that add a feed to a calendar app (presenters/subscribe.ts builds them). */
export const subscribeLinks = z
  .object({
    webcal: z.string().meta({
      description: "the feed as a `webcal:` address: opens the system's calendar app (Apple Calendar, Outlook)",
    }),
    google: z.string().meta({ description: "adds the feed to Google Calendar (calendar.google.com, `?cid=`)" }),
    outlook: z.string().meta({ description: "adds the feed to Outlook on the web (outlook.live.com, add from web)" }),
  })
  .nullable()
  .meta({
    description:
      "links a human follows to subscribe to `feed_url` in their calendar app; null while the feed answers no one",
  });
export type PresentedSubscribeLinks = z.input<typeof subscribeLinks>;
