/**
 * The feeds job shares its fetches between tenants (jobs/feeds.ts): one agent's 60 feeds due
 * at once hold another's feed for a pass, not for 30.
 */
import { describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import { feedPass, shareByTenant } from "../../functions/src/jobs/feeds.js";
import { budgetOf } from "../../functions/src/jobs/pass.js";
import type { FeedFetcher } from "../../functions/src/outbound/fetch-feed.js";
import type { FeedRecord } from "../../functions/src/domain/feeds/records.js";
import { appPerTest } from "../helpers/app.js";
import { mintAgent, newCalendar } from "../helpers/factories.js";
import { post } from "../helpers/http.js";

const t = appPerTest();

const feed = (tenant: string, n: number) => ({ tenant, calendar_id: `cal_${tenant}${n}` }) as FeedRecord;

describe("shareByTenant", () => {
  it("takes each tenant's first feeds in due order and leaves the rest of each for later", () => {
    const due = [feed("A", 1), feed("A", 2), feed("A", 3), feed("B", 1), feed("A", 4), feed("B", 2), feed("B", 3)];
    const { turns, deferred } = shareByTenant(due, 2);
    expect(turns.map((f) => f.calendar_id)).toEqual(["cal_A1", "cal_A2", "cal_B1", "cal_B2"]);
    expect(deferred.map((f) => f.calendar_id)).toEqual(["cal_A3", "cal_A4", "cal_B3"]);
  });
});

describe("a pass of the feeds job", () => {
  it("fetches a second tenant's feed in the pass after a first tenant's 60 fell due", async () => {
    t.deps.resolveHost = async () => ["93.184.215.14"];
    const busy = await mintAgent(t, "Busy");
    const quiet = await mintAgent(t, "Quiet");
    for (let h = 0; h < 3; h++) {
      const host = await newCalendar(t, busy, { name: `Host ${h}` });
      for (let i = 0; i < 20; i++) {
        const body = { feed_url: `https://busy.example/${h}/${i}.ics`, key: `f${i}` };
        expect((await post(t, `/v1/calendars/${host.id}/layers`, busy.auth).send(body)).status).toBe(200);
      }
    }
    t.clock.advance(1);
    const theirs = await newCalendar(t, quiet, { name: "Quiet host" });
    const body = { feed_url: "https://quiet.example/team.ics", key: "team" };
    expect((await post(t, `/v1/calendars/${theirs.id}/layers`, quiet.auth).send(body)).status).toBe(200);
    expect(await t.deps.store.query(paths.feeds())).toHaveLength(61);

    const fetched: string[] = [];
    const fetch: FeedFetcher = async (url) => {
      fetched.push(new URL(url).host);
      return { outcome: "unchanged" };
    };
    t.clock.advance(60_000);
    const limits = { atOnce: 2, perHost: 2, perTenant: 2 };
    const first = await feedPass(t.deps, budgetOf(10_000), { fetch, limits });
    expect(first).toMatchObject({ done: 2, more: true });
    expect(fetched).toEqual(["busy.example", "busy.example"]);
    await feedPass(t.deps, budgetOf(10_000), { fetch, limits });
    expect(fetched.slice(2)).toContain("quiet.example");
    expect(fetched).toHaveLength(5);
  });
});
