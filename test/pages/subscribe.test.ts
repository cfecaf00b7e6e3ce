/**
 * What a human needs to subscribe, over HTTP: the feeds' notes as plain text (read back with
 * node-ical), the page's Subscribe control against the API record's `subscribe`, the head's
 * description and Open Graph tags, the favicon, and the embeddable variant's framing headers.
 */
import ical, { type VEvent } from "node-ical";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { appPerTest } from "../helpers/app.js";
import { mintAgent, newCalendar, newEvent } from "../helpers/factories.js";
import { createSiteTestApp } from "./site.js";

const t = appPerTest(createSiteTestApp);

const NOTES = `Hosted by the **Platform team**, see [the agenda](https://example.com/agenda) or https://example.com/room.

- bring _slides_
- \`npm test\` passes`;

async function seed() {
  const owner = await mintAgent(t, "Planner");
  const calendar = await newCalendar(t, owner.auth, {
    name: "Platform & friends",
    slug: "platform-friends",
    timezone: "Europe/Berlin",
    visibility: "public",
    purpose: "The **platform** team's calendar.",
  });
  await newEvent(t, owner.auth, calendar.id, {
    name: "Planning",
    date: "2026-11-24",
    start_time: "10:00",
    end_time: "11:00",
    notes: NOTES,
  });
  return { owner, calendar };
}

const feedText = async (path: string) => (await request(t.app).get(path).expect(200)).text;

describe("feed notes", () => {
  it("carry the notes as plain text, links kept as addresses, and the purpose likewise", async () => {
    await seed();
    const parsed = ical.sync.parseICS(await feedText("/c/platform-friends.ics"));
    const [event] = Object.values(parsed).filter((c): c is VEvent => c?.type === "VEVENT");
    expect(event.description).toBe(
      "Hosted by the Platform team, see the agenda (https://example.com/agenda) or https://example.com/room.\n\n" +
        "- bring slides\n- npm test passes",
    );
    const calendar = Object.values(parsed).find((c) => c?.type === "VCALENDAR") as unknown as Record<string, unknown>;
    expect(calendar["WR-CALDESC"]).toBe("The platform team's calendar.");
  });
});
