/**
 * Alarms in `/c/{slug}.ics` and `/v/{slug}.ics` (docs/api.md#alarms), read back with node-ical:
 * one VALARM per alarm (ACTION:DISPLAY, TRIGGER in minutes before the start, the occurrence's
 * name as DESCRIPTION), in the series' VEVENT, in each override with the occurrence's own
 * alarms, and in an occurrence a view shows apart from its series.
 */
import type { Express } from "express";
import ical, { type VAlarm, type VEvent } from "node-ical";
import { beforeEach, describe, expect, it } from "vitest";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { appPerTest } from "../helpers/app.js";
import { getText, patch, post } from "../helpers/http.js";
import { mintAgent, newEvent, type MintedAgent } from "../helpers/factories.js";
import { expandFeed } from "../helpers/ics-oracle.js";

const t = appPerTest();
let feeds: Express;
let owner: MintedAgent;
beforeEach(async () => {
  feeds = createPagesApp(t.deps);
  owner = await mintAgent(t, "Planner", { calendar: { name: "Team", timezone: "Europe/Berlin" } });
});

async function feedText(path: string): Promise<string> {
  const { res, text } = await getText(feeds, path);
  expect(res.status).toBe(200);
  return text;
}

const summaryOf = (e: VEvent) => (typeof e.summary === "string" ? e.summary : e.summary.val);

/** The VEVENTs of a feed, overrides included, by name; each with its alarms as node-ical read them. */
function alarmsByName(text: string): Record<string, VAlarm[]> {
  const out: Record<string, VAlarm[]> = {};
  const add = (e: VEvent) => {
    const name = summaryOf(e);
    if (name in out) throw new Error(`two VEVENTs named ${name}`);
    out[name] = e.alarms ?? [];
  };
  for (const c of Object.values(ical.sync.parseICS(text))) {
    if (c?.type !== "VEVENT") continue;
    add(c);
    // node-ical files each override under more than one key (its date, its date-time).
    for (const override of new Set(Object.values(c.recurrences ?? {}))) add(override as VEvent);
  }
  return out;
}

const triggers = (alarms: VAlarm[]) => alarms.map((a) => a.trigger);

const occurrence = (eventId: string, date: string) =>
  `/v1/calendars/${owner.calendarId}/events/${eventId}/occurrences/${date}`;

describe("alarms in feeds", () => {
  it("writes a VALARM per alarm, in minutes, in events and in each override with its own alarms", async () => {
    const cal = owner.calendarId;
    await newEvent(t, owner, cal, { name: "Launch", date: "2027-03-10", start_time: "09:00", alarms: [15, 2880, 0] });
    await newEvent(t, owner, cal, { name: "Offsite", date: "2027-03-12", alarms: [60] });
    await newEvent(t, owner, cal, { name: "Plain", date: "2027-03-13", start_time: "10:00" });
    const standup = await newEvent(t, owner, cal, {
      name: "Standup",
      recur: { type: "weekly", day: 1, starts: "2027-01-04", count: 6 },
      start_time: "09:30",
      end_time: "09:45",
      alarms: [30],
    });
    await patch(t, occurrence(standup.id, "2027-01-11"), owner.auth)
      .send({ name: "Early", alarms: [5] })
      .expect(200);
    await patch(t, occurrence(standup.id, "2027-01-18"), owner.auth).send({ name: "Quiet", alarms: [] }).expect(200);
    await patch(t, occurrence(standup.id, "2027-01-25"), owner.auth).send({ name: "Retro" }).expect(200);
    await patch(t, occurrence(standup.id, "2027-02-01"), owner.auth).send({ cancelled: true }).expect(200);

    const text = await feedText(`/c/${owner.calendarSlug}.ics`);
    const alarms = alarmsByName(text);
    // 2,880 minutes stays minutes: `-P2D` would be two nominal days, 47 or 49 hours across a DST change.
    expect(triggers(alarms.Launch)).toEqual(["-PT2880M", "-PT15M", "PT0M"]);
    expect(text).not.toMatch(/TRIGGER:-?P\d/);
    // After every property of their VEVENT, as RFC 5545 orders them: nothing but VALARMs follow one.
    expect(text.match(/END:VALARM\r\n(?!BEGIN:VALARM|END:VEVENT)/g)).toBeNull();
    expect(text.match(/END:VALARM\r\n/g)).toHaveLength(7);
    expect(triggers(alarms.Offsite)).toEqual(["-PT60M"]);
    expect(alarms.Plain).toEqual([]);
    expect(triggers(alarms.Standup)).toEqual(["-PT30M"]);
    expect(triggers(alarms.Early)).toEqual(["-PT5M"]);
    expect(alarms.Quiet).toEqual([]);
    expect(triggers(alarms.Retro)).toEqual(["-PT30M"]);
    for (const [name, list] of Object.entries(alarms)) {
      for (const alarm of list) {
        expect(alarm.action).toBe("DISPLAY");
        expect(alarm.description).toBe(name);
      }
    }
    // VALARMs leave the occurrences as they were: the feed still expands to the API's.
    const expanded = expandFeed(text, "2027-01-01", "2027-03-31").occurrences.filter((o) => o.eventId === standup.id);
    expect(expanded.map((o) => o.date)).toEqual(["2027-01-04", "2027-01-11", "2027-01-18", "2027-01-25", "2027-02-08"]);
  });

  it("a view's feed carries the alarms, also of an occurrence it shows apart from its series", async () => {
    const cal = owner.calendarId;
    const sync = await newEvent(t, owner, cal, {
      name: "Sync",
      recur: { type: "weekly", day: 3, starts: "2027-01-06", count: 4 },
      start_time: "15:00",
      category: "team",
      alarms: [10],
    });
    await newEvent(t, owner, cal, { name: "Ops review", date: "2027-01-07", category: "ops", alarms: [1440] });
    await patch(t, occurrence(sync.id, "2027-01-13"), owner.auth)
      .send({ name: "Ops sync", category: "ops", alarms: [90, 20] })
      .expect(200);
    await patch(t, occurrence(sync.id, "2027-01-20"), owner.auth)
      .send({ name: "Ops handover", category: "ops" })
      .expect(200);
    const view = await post(t, `/v1/calendars/${cal}/views`, owner.auth)
      .send({ name: "Ops", filter: { categories: ["ops"] } })
      .expect(200);

    const alarms = alarmsByName(await feedText(`/v/${view.body.slug}.ics`));
    expect(Object.keys(alarms).sort()).toEqual(["Ops handover", "Ops review", "Ops sync"]);
    expect(triggers(alarms["Ops review"])).toEqual(["-PT1440M"]);
    expect(triggers(alarms["Ops sync"])).toEqual(["-PT90M", "-PT20M"]);
    // No alarms of its own: the series' alarms, though the series is not in this feed.
    expect(triggers(alarms["Ops handover"])).toEqual(["-PT10M"]);
  });
});
