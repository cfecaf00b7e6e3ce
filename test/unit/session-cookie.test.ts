/** http/session.ts: when the session cookie is Secure, and the CSRF value a form must carry. */
import { describe, expect, it } from "vitest";
import { csrfOf, secureCookies } from "../../functions/src/http/session.js";

describe("the session cookie", () => {
  it("is Secure everywhere but on a loopback base URL over plain http", () => {
    for (const local of ["http://localhost:8787", "http://127.0.0.1:5000", "http://[::1]:8787", "http://localhost"])
      expect(secureCookies(local), local).toBe(false);
    for (const remote of [
      "https://almanac.web.app",
      "https://localhost:8443",
      "http://almanac.example",
      "http://10.0.0.2:8787",
    ])
      expect(secureCookies(remote), remote).toBe(true);
  });

  it("derives the CSRF value from the secret, one way: a page shows the value, never the secret", () => {
    const secret = "a".repeat(32);
    expect(csrfOf(secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(csrfOf(secret)).not.toContain(secret);
    expect(csrfOf(secret)).toBe(csrfOf(secret));
    expect(csrfOf("b".repeat(32))).not.toBe(csrfOf(secret));
  });
});
