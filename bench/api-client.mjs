// A caller of the API for the benchmarks' setup: JSON in and out, a fresh Idempotency-Key on
// every write, and anything but 200 thrown with its body.
import { randomUUID } from "node:crypto";

export function apiClient(origin) {
  return async (method, path, { token, body } = {}) => {
    const headers = {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { "content-type": "application/json", "idempotency-key": randomUUID() } : {}),
    };
    const res = await fetch(`${origin}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
    if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
    return res.json();
  };
}
