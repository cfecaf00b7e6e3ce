/** A page whose period shows nothing points to the nearest occurrences after and before it. */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { appPerTest } from "../helpers/app.js";
import { mintAgent, newCalendar, newEvent, newView } from "../helpers/factories.js";
import { createSiteTestApp } from "./site.js";

const t = appPerTest(createSiteTestApp); // today is Sunday 2026-11-22

async function world() {
  const owner = await mintAgent(t, "Planner");
  const calendar = await newCalendar(t, owner.auth, { name: "Releases", slug: "releases", visibility: "public" });
  return { owner, calendar };
}

describe("an empty period", () => {
  it("links to the next occurrence after it and the last one before it, in the same lens", async () => {
    const { owner, calendar } = await world();
    await newEvent(t, owner.auth, calendar.id, { name: "Spring release", date: "2027-03-09" });
    await newEvent(t, owner.auth, calendar.id, { name: "Autumn retro", date: "2026-09-30" });
    await newEvent(t, owner.auth, calendar.id, { name: "Summer release", date: "2027-06-15" });

    const res = await request(t.app).get("/c/releases").expect(200);
    expect(res.text).toContain("Nothing in this period.");
    expect(res.text).toContain('Next: <a href="?view=month&amp;date=2027-03-09">Spring release,');
    expect(res.text).toContain('Before it: <a href="?view=month&amp;date=2026-09-30">Autumn retro,');

    const week = await request(t.app).get("/c/releases?view=week&date=2027-01-04").expect(200);
    expect(week.text).toContain('Next: <a href="?view=week&amp;date=2027-03-09">Spring release,');
  });

  it("says nothing when the period has events, or when nothing lies within a year", async () => {
    const { owner, calendar } = await world();
    await newEvent(t, owner.auth, calendar.id, { name: "Today's review", date: "2026-11-23" });
    expect((await request(t.app).get("/c/releases").expect(200)).text).not.toContain("Nothing in this period.");
    const far = await request(t.app).get("/c/releases?date=2029-01-10").expect(200);
    expect(far.text).not.toContain("Nothing in this period.");
  });

  it("follows a view's filter: only what the view shows is pointed to", async () => {
    const { owner, calendar } = await world();
    await newEvent(t, owner.auth, calendar.id, { name: "Internal sync", date: "2026-12-02", category: "internal" });
    await newEvent(t, owner.auth, calendar.id, { name: "Public launch", date: "2027-02-01", category: "launch" });
    const view = await newView(t, owner.auth, calendar.id, { name: "Launches", filter: { categories: ["launch"] } });
    const res = await request(t.app).get(`/v/${view.slug}?view=month&date=2026-12-01`).expect(200);
    expect(res.text).toContain('Next: <a href="?view=month&amp;date=2027-02-01">Public launch,');
    expect(res.text).not.toContain("Internal sync");
  });
});
