import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createApiApp } from "../../functions/src/app.js";
import { errors } from "../../functions/src/domain/errors.js";
import type { AnyRoute } from "../../functions/src/http/route.js";
import { checkResponses, responseProblem } from "../helpers/check-responses.js";
import { createTestApp, type TestApp } from "../helpers/app.js";

// The test helpers turn the check on for every API test; these prove it catches what it should.
const thing = z.object({ id: z.string(), tags: z.array(z.object({ name: z.string() })) });
// Not through defineRoute: these handlers answer what `thing` does not allow, which its typing would refuse.
const route = (path: string, handler: AnyRoute["handler"]): AnyRoute => ({
  method: "get",
  path,
  summary: "test",
  tags: ["test"],
  auth: "none",
  response: thing,
  errors: ["not_found"],
  handler,
});

const routes = [
  route("/t/good", async () => ({ id: "a", tags: [{ name: "x" }] })),
  route("/t/missing", async () => ({ tags: [] })),
  route("/t/extra", async () => ({ id: "a", tags: [{ name: "x", secret: 1 }] })),
  route("/t/undocumented-error", async () => {
    throw errors.forbidden("owner");
  }),
  route("/t/documented-error", async () => {
    throw errors.notFound("thing");
  }),
];

let t: TestApp;
let app: ReturnType<typeof createApiApp>;
const reported: string[] = [];

beforeAll(() => {
  t = createTestApp();
  app = createApiApp(t.deps, routes, { checkOutcome: checkResponses() });
});
afterAll(() => t.close());

async function get(path: string) {
  const spy = vi.spyOn(console, "error").mockImplementation((line: string) => void reported.push(line));
  try {
    return await request(app).get(path);
  } finally {
    spy.mockRestore();
  }
}

describe("the response check of the test suite", () => {
  it("lets documented successes and errors through untouched", async () => {
    expect((await get("/t/good")).status).toBe(200);
    const notFound = await get("/t/documented-error");
    expect(notFound.status).toBe(404);
    expect(notFound.body.error.code).toBe("not_found");
    const unknown = await get("/nowhere");
    expect(unknown.status).toBe(404);
    const wrongMethod = await request(app).delete("/t/good");
    expect(wrongMethod.status).toBe(405);
    expect(reported).toEqual([]);
  });

  it("fails a 200 that lacks a documented field, loudly", async () => {
    const res = await get("/t/missing");
    expect(res.status).toBe(500);
    expect(res.body.error.message).toContain("GET /t/missing");
    expect(res.body.error.message).toContain("`id`");
    expect(reported.at(-1)).toBe(res.body.error.message);
  });

  it("fails a 200 that carries a field the schema does not document", async () => {
    const res = await get("/t/extra");
    expect(res.status).toBe(500);
    expect(res.body.error.message).toContain("undocumented field `tags[0].secret`");
  });

  it("fails an error whose code the operation does not document", async () => {
    const res = await get("/t/undocumented-error");
    expect(res.status).toBe(500);
    expect(res.body.error.message).toContain("`forbidden`");
  });
});

describe("responseProblem", () => {
  const r = routes[0];
  it("checks the envelope, the code and its status", () => {
    expect(responseProblem(r, 404, { error: { code: "not_found", message: "no", request_id: "req_1" } })).toBeNull();
    expect(responseProblem(r, 404, { error: { code: "not_found", message: "no" } })).toContain("request_id");
    expect(responseProblem(r, 404, { error: { code: "not_found", message: "no", request_id: "a b" } })).not.toBeNull();
    expect(responseProblem(r, 404, { error: { code: "not_found" } })).toContain("message");
    expect(responseProblem(r, 404, { error: { code: "not_found", message: "no", extra: 1 } })).not.toBeNull();
    expect(responseProblem(r, 400, { error: { code: "not_found", message: "no" } })).toContain("status 400");
    expect(
      responseProblem(undefined, 404, { error: { code: "not_found", message: "no", request_id: "r" } }),
    ).toBeNull();
    expect(responseProblem(undefined, 200, { ok: true })).toContain("outside any documented operation");
  });
});
