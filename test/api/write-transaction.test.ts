/**
 * Every write (POST, PATCH, DELETE) reads the caller's role inside the same transaction that
 * writes, so a writer revoked at the same moment cannot land one more write: the policy is
 * judged on the state the write commits against (issue 10).
 */
import { describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import type { Store, Transaction } from "../../functions/src/storage/port.js";
import { appPerTest } from "../helpers/app.js";
import { del, patch, post } from "../helpers/http.js";
import { grantRole, mintAgent, newCalendar } from "../helpers/factories.js";

interface TxLog {
  reads: string[];
  writes: string[];
}

/** The store, with a log of what each transaction read and wrote. */
function loggingStore(store: Store, log: TxLog[]): Store {
  const logged = Object.create(store) as Store;
  logged.runTransaction = (fn) =>
    store.runTransaction((tx) => {
      const entry: TxLog = { reads: [], writes: [] };
      log.push(entry);
      const watched: Transaction = {
        get: (path) => (entry.reads.push(path), tx.get(path)),
        getAll: (all) => (entry.reads.push(...all), tx.getAll(all)),
        query: (collection, spec) => (entry.reads.push(collection), tx.query(collection, spec)),
        create: (path, data) => (entry.writes.push(path), tx.create(path, data)),
        set: (path, data) => (entry.writes.push(path), tx.set(path, data)),
        update: (path, data) => (entry.writes.push(path), tx.update(path, data)),
        delete: (path) => (entry.writes.push(path), tx.delete(path)),
      };
      return fn(watched);
    });
  return logged;
}

const t = appPerTest();

describe("one transaction per write", () => {
  it("reads the writer's role in the transaction that creates, changes and deletes an event", async () => {
    const owner = await mintAgent(t, "Owner");
    const writer = await mintAgent(t, "Writer");
    const calendar = await newCalendar(t, owner);
    await grantRole(t, owner.auth, calendar.id, writer.agentId, "writer");
    const log: TxLog[] = [];
    t.deps.store = loggingStore(t.deps.store, log);
    const membership = paths.membership(writer.agentId, calendar.id);
    const wroteWithRole = (path: string) => log.some((tx) => tx.reads.includes(membership) && tx.writes.includes(path));

    const created = await post(t, `/v1/calendars/${calendar.id}/events`, writer.auth).send({
      name: "Standup",
      date: "2027-01-04",
    });
    expect(created.status).toBe(200);
    const eventPath = paths.event(calendar.id, created.body.id);
    expect(wroteWithRole(eventPath)).toBe(true);

    log.length = 0;
    await patch(t, `/v1/calendars/${calendar.id}/events/${created.body.id}`, writer.auth)
      .send({ name: "Daily" })
      .expect(200);
    expect(wroteWithRole(eventPath)).toBe(true);

    log.length = 0;
    await del(t, `/v1/calendars/${calendar.id}/events/${created.body.id}`, writer.auth).expect(200);
    expect(wroteWithRole(eventPath)).toBe(true);
  });

  it("a POST commits its effect and its stored response together", async () => {
    const owner = await mintAgent(t, "Owner");
    const log: TxLog[] = [];
    t.deps.store = loggingStore(t.deps.store, log);
    const created = await post(t, `/v1/calendars/${owner.calendarId}/events`, owner.auth).send({
      name: "Launch",
      date: "2027-01-04",
    });
    expect(created.status).toBe(200);
    const eventPath = paths.event(owner.calendarId, created.body.id);
    // The claim, then one transaction with the event and the idempotency record.
    expect(log).toHaveLength(2);
    expect(log[1].writes).toContain(eventPath);
    expect(log[1].writes.some((p) => p.startsWith("idempotency/"))).toBe(true);
  });

  it("event writes never write the calendar record: they spread over its shards", async () => {
    const owner = await mintAgent(t, "Owner");
    const log: TxLog[] = [];
    t.deps.store = loggingStore(t.deps.store, log);
    const created = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        post(t, `/v1/calendars/${owner.calendarId}/events`, owner.auth).send({ name: `E${i}`, date: "2027-01-04" }),
      ),
    );
    expect(created.every((r) => r.status === 200)).toBe(true);
    const written = log.flatMap((tx) => tx.writes);
    expect(written).not.toContain(paths.calendar(owner.calendarId));
    const underShards = written.filter((p) => p.startsWith(`${paths.shards(owner.calendarId)}/`));
    const shardsWritten = new Set(underShards.filter((p) => !p.includes("/changes/")));
    // Each write records its change for the change feed beside its shard, in the same transaction.
    expect(underShards.filter((p) => p.includes("/changes/"))).toHaveLength(24);
    // 24 writes over 8 shards: all on one shard has odds of 8 in 8^24.
    expect(shardsWritten.size).toBeGreaterThan(1);
    expect(shardsWritten.size).toBeLessThanOrEqual(t.deps.config.revisionShards);
  });
});
