/**
 * Lists read a page at a time from the store (domain/queries/creation-pages.ts) answer exactly
 * what sorting the whole list in memory answers (domain/paging.ts's `paginate`), records of
 * one millisecond included, whichever of those the store puts first: each query here gets its
 * ties in a random order before its limit cuts them, as no adapter promises an order among them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { Deps } from "../../functions/src/domain/deps.js";
import { newId } from "../../functions/src/domain/ids.js";
import { paginate, type Page, type PageRequest } from "../../functions/src/domain/paging.js";
import { LAYOUT, paths } from "../../functions/src/domain/paths.js";
import { ACCOUNT_AGENTS_SHOWN, listAccountAgents } from "../../functions/src/domain/queries/accounts.js";
import { listAccessRequests, listGrants } from "../../functions/src/domain/queries/grants.js";
import type { AccessRequestRecord, AgentRecord, GrantRecord } from "../../functions/src/domain/records.js";
import type { DocRef, Store } from "../../functions/src/storage/port.js";
import { SqliteStore } from "../../functions/src/storage/sqlite/index.js";
import { declaredIndexesOnly } from "../helpers/declared-indexes.js";

const dir = mkdtempSync(join(tmpdir(), "almanac-creation-pages-"));
const sqlite = new SqliteStore(join(dir, "almanac.sqlite"), { layout: LAYOUT });
afterAll(async () => {
  await sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A few milliseconds, so that most records share theirs with others. */
const INSTANTS = ["2026-11-22T10:00:00.000Z", "2026-11-22T10:00:00.001Z", "2026-11-22T10:00:00.002Z"];

/** The store with each query's ties (equal `created_at`) shuffled by `random` before its limit applies. */
function tiesShuffled(store: Store, random: () => number): Deps {
  const query: Store["query"] = async (collection, spec = {}) => {
    const all = await store.query(collection, { ...spec, limit: undefined });
    const groups = new Map<unknown, typeof all>();
    for (const doc of all) {
      const at = (doc.data as { created_at?: unknown }).created_at;
      groups.set(at, [...(groups.get(at) ?? []), doc]);
    }
    const shuffled = [...groups.values()].flatMap((group) =>
      group
        .map((doc) => ({ doc, r: random() }))
        .sort((a, b) => a.r - b.r)
        .map(({ doc }) => doc),
    );
    return spec.limit === undefined ? shuffled : shuffled.slice(0, spec.limit);
  };
  return { store: Object.assign(Object.create(store) as Store, { query }) } as Deps;
}

const seeded = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};

async function seed<T extends object>(records: Array<{ ref: DocRef<T>; data: T }>): Promise<void> {
  await sqlite.runTransaction(async (tx) => {
    for (const { ref, data } of records) tx.set(ref, data);
  });
}

/** Every page from the first, each checked against the in-memory answer to the same request, and a few cursors of its own. */
async function expectSamePages<T extends { created_at: string; id: string }>(
  all: T[],
  order: "asc" | "desc",
  limit: number,
  list: (page: PageRequest) => Promise<Page<T>>,
  foreignCursors: string[],
): Promise<void> {
  const expected = (page: PageRequest) => paginate(all, page, (r) => [r.created_at, r.id], order);
  let cursor: string | undefined;
  do {
    const page = await list({ limit, cursor });
    expect(page).toEqual(expected({ limit, cursor }));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  for (const foreign of foreignCursors)
    expect(await list({ limit, cursor: foreign })).toEqual(expected({ limit, cursor: foreign }));
}

const cursorOf = (createdAt: string, id: string) => Buffer.from(JSON.stringify([createdAt, id])).toString("base64url");
const records = fc.array(fc.record({ at: fc.constantFrom(...INSTANTS), pending: fc.boolean() }), { maxLength: 12 });
const run = { numRuns: 40 };

describe("lists paged in the store", () => {
  it("grants, oldest first: the same pages as sorting them all", async () => {
    await fc.assert(
      fc.asyncProperty(records, fc.integer({ min: 1, max: 6 }), fc.integer(), async (made, limit, shuffle) => {
        const calendarId = newId("cal");
        const grants = made.map(({ at }): GrantRecord => {
          const id = newId("grt");
          const agent = newId("agt");
          return {
            id,
            calendar_id: calendarId,
            agent_id: agent,
            agent_name: agent,
            role: "reader",
            created_at: at,
            updated_at: at,
            revoked_at: null,
          };
        });
        await seed(grants.map((g) => ({ ref: paths.grant(calendarId, g.id), data: g })));
        const deps = tiesShuffled(declaredIndexesOnly(sqlite), seeded(shuffle));
        const foreign = [
          cursorOf(INSTANTS[1], "grt_m"),
          cursorOf(INSTANTS[0], ""),
          cursorOf("2026-11-22T10:00:00.0015Z", "x"),
        ];
        await expectSamePages(grants, "asc", limit, (page) => listGrants(deps, calendarId, page), foreign);
      }),
      run,
    );
  });

  it("access requests, newest first, of every status or one: the same pages as sorting them all", async () => {
    await fc.assert(
      fc.asyncProperty(records, fc.integer({ min: 1, max: 6 }), fc.integer(), async (made, limit, shuffle) => {
        const calendarId = newId("cal");
        const requests = made.map(({ at, pending }): AccessRequestRecord => {
          const agent = newId("agt");
          return {
            id: newId("areq"),
            calendar_id: calendarId,
            agent_id: agent,
            agent_name: agent,
            role: "reader",
            message: null,
            status: pending ? "pending" : "denied",
            created_at: at,
            resolved_at: null,
            resolved_by: null,
          };
        });
        await seed(requests.map((r) => ({ ref: paths.accessRequest(calendarId, r.id), data: r })));
        const deps = tiesShuffled(declaredIndexesOnly(sqlite), seeded(shuffle));
        const foreign = [cursorOf(INSTANTS[1], "areq_m"), cursorOf(INSTANTS[2], "zzz")];
        await expectSamePages(
          requests,
          "desc",
          limit,
          (page) => listAccessRequests(deps, calendarId, {}, page),
          foreign,
        );
        const pending = requests.filter((r) => r.status === "pending");
        const onePage = (page: PageRequest) => listAccessRequests(deps, calendarId, { status: "pending" }, page);
        await expectSamePages(pending, "desc", limit, onePage, foreign);
      }),
      run,
    );
  });

  it("the account page shows the newest agents of the account, however many it has", async () => {
    const userId = "user_many_agents";
    const agent = (i: number, owner: string | null): AgentRecord => ({
      id: newId("agt"),
      name: `Agent ${i}`,
      // Three agents a millisecond: the 100th and 101st newest may share one.
      created_at: new Date(Date.parse(INSTANTS[0]) + Math.floor(i / 3)).toISOString(),
      owner_user_id: owner,
    });
    const mine = Array.from({ length: ACCOUNT_AGENTS_SHOWN + 20 }, (_, i) => agent(i, userId));
    const others = Array.from({ length: 10 }, (_, i) => agent(1000 + i, i % 2 ? null : "someone_else"));
    await seed([...mine, ...others].map((a) => ({ ref: paths.agent(a.id), data: a })));
    for (const shuffle of [1, 2, 3]) {
      const list = await listAccountAgents(tiesShuffled(declaredIndexesOnly(sqlite), seeded(shuffle)), userId);
      const newest = paginate(mine, { limit: ACCOUNT_AGENTS_SHOWN }, (a) => [a.created_at, a.id], "desc").items;
      expect(list.agents.map((a) => a.agent)).toEqual(newest);
      expect(list.more).toBe(true);
    }
  });
});
