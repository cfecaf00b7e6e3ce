import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { createApiApp } from "../../functions/src/app.js";
import type { HttpDeps } from "../../functions/src/http/deps.js";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { ContentionError, DocumentExistsError, type Store } from "../../functions/src/storage/port.js";
import { appPerTest } from "../helpers/app.js";
import { expectError, post } from "../helpers/http.js";
import { mintAgent, type MintedAgent } from "../helpers/factories.js";

/**
 * A create that loses a race: two requests both read a document as absent and both create it;
 * the store rejects the second commit with DocumentExistsError (Firestore's ALREADY_EXISTS).
 * That is a transient conflict, not a crash: the caller is told to retry (its retry reads
 * what the winner wrote and gets the answer that fits, e.g. `slug_taken`), never a 500.
 */
const t = appPerTest();
let owner: MintedAgent;
beforeEach(async () => {
  owner = await mintAgent(t, "Owner");
});

/** The test app's store, except that what `fails` names rejects with `error`. */
function storeFailing(store: Store, error: Error, fails: { reads?: boolean; transactions?: boolean }): Store {
  const reject = () => Promise.reject(error);
  return {
    get: fails.reads ? reject : (path) => store.get(path),
    getAll: fails.reads ? reject : (paths) => store.getAll(paths),
    query: fails.reads ? reject : (collection, spec) => store.query(collection, spec),
    count: fails.reads ? reject : (collection, spec) => store.count(collection, spec),
    runTransaction: fails.transactions ? reject : (fn) => store.runTransaction(fn),
    runReadOnly: fails.reads ? reject : (fn) => store.runReadOnly(fn),
    close: () => store.close(),
  };
}

const lostRace = () => new DocumentExistsError("slugs/team");
const withStore = (store: Store): HttpDeps => ({ ...t.deps, store });

describe("a create that loses a race", () => {
  it("answers 503 unavailable with Retry-After on the API, and is not logged as a crash", async () => {
    const app = createApiApp(withStore(storeFailing(t.deps.store, lostRace(), { transactions: true })));
    const res = await post({ app }, "/v1/calendars", owner.auth).send({ name: "Team", slug: "team" });
    expectError(res, 503, "unavailable");
    expect(res.headers["retry-after"]).toBe("1");
    expect(res.body.error.message).toMatch(/retry/);
    expect(res.body.error.message).not.toContain("slugs/");
    expect(t.logs.join("\n")).not.toContain("internal error");
  });

  it("answers 503 with Retry-After on pages and feeds, as contention does", async () => {
    for (const error of [lostRace(), new ContentionError()]) {
      const pages = createPagesApp(withStore(storeFailing(t.deps.store, error, { reads: true, transactions: true })));
      const page = await request(pages).get(`/c/${owner.calendarSlug}`);
      expect(page.status, error.name).toBe(503);
      expect(page.headers["retry-after"]).toBe("1");
      expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
      const feed = await request(pages).get(`/c/${owner.calendarSlug}.ics`);
      expect(feed.status, error.name).toBe(503);
      expect(feed.headers["retry-after"]).toBe("1");
      expect(feed.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect(feed.text).toMatch(/retry/i);
    }
    expect(t.logs.join("\n")).not.toMatch(/page error|feed error/);
  });
});
