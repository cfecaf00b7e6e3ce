/** Requests to the test app: an idempotency key on every POST, and the check of the error envelope. */
import request from "supertest";
import type { TestApp } from "./app.js";

export type Auth = { Authorization: string };

/** Who makes a request: an agent (anything with its `auth`) or an Authorization header itself. */
export type Caller = Auth | { auth: Auth };

export const authOf = (caller: Caller): Auth => ("auth" in caller ? caller.auth : caller);

let keyCounter = 0;
export const freshKey = (): string => `key-${process.pid}-${++keyCounter}-${Math.random().toString(36).slice(2)}`;

/** A POST with a fresh idempotency key. */
export function post(t: Pick<TestApp, "app">, path: string, auth?: Auth) {
  const req = request(t.app).post(path).set("Idempotency-Key", freshKey());
  return auth ? req.set(auth) : req;
}

export const get = (t: Pick<TestApp, "app">, path: string, auth?: Auth) => {
  const req = request(t.app).get(path);
  return auth ? req.set(auth) : req;
};

export const patch = (t: Pick<TestApp, "app">, path: string, auth?: Auth) => {
  const req = request(t.app).patch(path);
  return auth ? req.set(auth) : req;
};

export const del = (t: Pick<TestApp, "app">, path: string, auth?: Auth) => {
  const req = request(t.app).delete(path);
  return auth ? req.set(auth) : req;
};

export function expectError(res: request.Response, status: number, code: string): void {
  if (res.status !== status || res.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  if (typeof res.body.error.message !== "string" || res.body.error.message.length === 0) {
    throw new Error(`error without a message: ${JSON.stringify(res.body)}`);
  }
  if (res.body.error.request_id !== res.headers["x-request-id"]) {
    throw new Error(`error.request_id is not the X-Request-Id header: ${JSON.stringify(res.body)}`);
  }
}

/** An error body without its request id, to compare the answers of two requests. */
export function withoutRequestId(body: unknown): unknown {
  const { error } = body as { error?: Record<string, unknown> };
  if (!error) return body;
  const { request_id: _requestId, ...rest } = error;
  return { ...(body as object), error: rest };
}

/** A GET whose body is read whole as text, whatever its type (a `.ics` feed): the answer and its text. */
export async function getText(app: TestApp["app"], path: string) {
  const res = await request(app)
    .get(path)
    .buffer(true)
    .parse((r, done) => {
      let text = "";
      r.setEncoding("utf8");
      r.on("data", (chunk: string) => (text += chunk));
      r.on("end", () => done(null, text));
    });
  return { res, text: res.body as string };
}
