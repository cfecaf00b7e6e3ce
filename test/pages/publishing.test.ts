/**
 * Publishing needs ownership (docs/api.md#publishing, issue 9): a private calendar attached as a
 * layer reaches a public host page, its feed, a share view and the view's feed only while an
 * owner of the host also holds the owner role on the layer calendar. A reader or writer grant
 * lets an agent read a private calendar, never publish it.
 */
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { appPerTest } from "../helpers/app.js";
import {
  attachLayer,
  grantRole,
  mintAgent,
  newCalendar,
  newEvent,
  newView,
  type MintedAgent,
} from "../helpers/factories.js";
import { createSiteTestApp } from "./site.js";

const t = appPerTest(createSiteTestApp); // today is 2026-11-22
let author: MintedAgent;
let publisher: MintedAgent;
let secret: { id: string };
let host: { id: string; slug: string };

beforeEach(async () => {
  author = await mintAgent(t, "Author");
  publisher = await mintAgent(t, "Publisher");
  secret = await newCalendar(t, author.auth, { name: "Board", visibility: "private" });
  await newEvent(t, author.auth, secret.id, { name: "Board dinner", date: "2026-11-25", start_time: "19:00" });
  host = await newCalendar(t, publisher.auth, { name: "Public host", slug: "public-host", visibility: "public" });
  await newEvent(t, publisher.auth, host.id, { name: "Open day", date: "2026-11-24" });
});

/** Every public surface of the host: its page, its feed, a share view and the view's feed. */
async function publicSurfaces(): Promise<Record<string, string>> {
  const view = await newView(t, publisher.auth, host.id, { name: `Everything ${Math.random()}` });
  const texts: Record<string, string> = {};
  for (const path of [
    `/c/${host.slug}?view=month&date=2026-11-25`,
    `/c/${host.slug}.ics`,
    `/v/${view.slug}?view=month&date=2026-11-25`,
    `/v/${view.slug}.ics`,
  ]) {
    const res = await request(t.app).get(path);
    expect(res.status, path).toBe(200);
    texts[path] = res.text;
  }
  return texts;
}

function expectOnEvery(texts: Record<string, string>, name: string, shown: boolean): void {
  for (const [path, text] of Object.entries(texts)) {
    expect(text.includes("Open day"), `${path} shows the host's own event`).toBe(true);
    expect(text.includes(name), `${path} ${shown ? "shows" : "hides"} ${name}`).toBe(shown);
  }
}

describe("a private layer on public pages, feeds and share views", () => {
  it("never shows a private calendar its host's owners only read or write", async () => {
    await grantRole(t, author.auth, secret.id, publisher.agentId, "reader");
    await attachLayer(t, publisher.auth, host.id, secret.id, "board");
    expectOnEvery(await publicSurfaces(), "Board dinner", false);

    await grantRole(t, author.auth, secret.id, publisher.agentId, "writer");
    expectOnEvery(await publicSurfaces(), "Board dinner", false);
  });

  it("shows it while an owner of the host owns the layer calendar too, and stops once demoted", async () => {
    await grantRole(t, author.auth, secret.id, publisher.agentId, "owner");
    await attachLayer(t, publisher.auth, host.id, secret.id, "board");
    expectOnEvery(await publicSurfaces(), "Board dinner", true);

    await grantRole(t, author.auth, secret.id, publisher.agentId, "writer");
    expectOnEvery(await publicSurfaces(), "Board dinner", false);
  });

  it("goes by the host's owners, not by who attached it", async () => {
    // The author co-owns the host: the publisher's reader grant no longer matters.
    await grantRole(t, author.auth, secret.id, publisher.agentId, "reader");
    await attachLayer(t, publisher.auth, host.id, secret.id, "board");
    await grantRole(t, publisher.auth, host.id, author.agentId, "owner");
    expectOnEvery(await publicSurfaces(), "Board dinner", true);
    await grantRole(t, publisher.auth, host.id, author.agentId, "writer");
    expectOnEvery(await publicSurfaces(), "Board dinner", false);
  });

  it("keeps showing public and unlisted layers whoever owns them", async () => {
    const open = await newCalendar(t, author.auth, { name: "Open", visibility: "unlisted" });
    await newEvent(t, author.auth, open.id, { name: "Open rehearsal", date: "2026-11-26" });
    await attachLayer(t, publisher.auth, host.id, open.id, "open");
    expectOnEvery(await publicSurfaces(), "Open rehearsal", true);
  });
});
