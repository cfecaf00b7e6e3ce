/**
 * The configuration of a test's app: what `readConfig` (functions/src/config.ts) makes of the
 * variables a test names, with rate limits off as for the whole suite (suites send thousands of
 * requests from one address; test/api/rate-limits.test.ts passes its own limits). A test changes
 * a setting by passing the variable, never by setting `process.env`.
 */
import { readConfig, type Config } from "../../functions/src/config.js";
import type { HttpDeps } from "../../functions/src/http/deps.js";
import { expensiveReadGateFor } from "../../functions/src/http/expensive-reads.js";

export function testConfig(env: Record<string, string> = {}): Config {
  return readConfig({ RATE_LIMITS: "off", ...env });
}

/** Webhooks may use `http:` and loopback receivers: the tests' receivers listen on 127.0.0.1. */
export const loopbackConfig = (): Config => testConfig({ WEBHOOKS_ALLOW_LOOPBACK: "on" });

/** The parts of `HttpDeps` that come from the configuration, for a test that builds its deps by hand. */
export function configDeps(config: Config = testConfig()): Pick<HttpDeps, "config" | "expensiveReads"> {
  return { config, expensiveReads: expensiveReadGateFor(config) };
}
