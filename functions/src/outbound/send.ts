/**
 * The webhook sender: the `Sender` the domain declares (domain/webhooks/sender.ts), built here,
 * in the entry layer, by the composition roots (server.ts, index.ts) and handed down.
 *
 * One POST of a JSON body. The address connected to is judged by the one address policy
 * (domain/webhooks/addresses.ts): a literal address here, a name on every address it resolves
 * to, at each new connection (outbound/lookup.ts), so DNS rebinding cannot pass. Redirects are
 * never followed; the attempt ends with the receiver's status, which must come within
 * `timeoutMs` (or before `signal` aborts); at most 4 KB of the answer is read, to keep the
 * connection, and never used.
 */
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { describeJudgement, judgeAddress, refusedName, type AddressPolicy } from "../domain/webhooks/addresses.js";
import type { Sender, SendResult } from "../domain/webhooks/sender.js";
import { guardedLookup, REFUSED_CODE, systemLookup } from "./lookup.js";

/** The most of an answer read; past it the connection is dropped. */
export const MAX_ANSWER_BYTES = 4096;

export interface SenderConfig {
  /** Loopback receivers allowed (`WEBHOOKS_ALLOW_LOOPBACK=on`: local runs and tests only). */
  allowLoopback: boolean;
  /** Name resolution (tests resolve names of their own); the system's DNS when absent. */
  lookup?: LookupFunction;
}

/** Why the URL's host is refused before any lookup (a literal address, a refused name), or null. */
export function refusedHost(target: URL, policy: AddressPolicy): string | null {
  const host = target.hostname;
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  // Node connects to a literal address without a lookup: it is judged here, as Node reads it.
  if (isIP(bare) === 0) {
    const refused = refusedName(host, policy);
    return refused ? `refused: a webhook host must not ${refused}` : null;
  }
  const judgement = judgeAddress(bare, policy);
  return judgement.allowed ? null : `refused: ${host} is ${describeJudgement(judgement)}`;
}

/** Why a request failed, in words a receiver's owner can act on. */
function describe(err: NodeJS.ErrnoException): string {
  if (err.code === REFUSED_CODE) return err.message;
  return err.message || err.code || err.name;
}

function errorOfStatus(status: number | null): string | null {
  if (status === null) return "no status in the answer";
  if (status >= 300 && status < 400)
    return `redirect (${status}) not followed: deliveries go to the subscribed URL only`;
  if (status < 200 || status >= 300) return `receiver answered ${status}`;
  return null;
}

/**
 * A sender with its own kept-alive connections (one agent per scheme, so a stream's deliveries
 * reuse a socket). Build one per process and configuration: `sharedSender` keeps them.
 */
export function createSender(config: SenderConfig): Sender {
  const policy: AddressPolicy = { allowLoopback: config.allowLoopback };
  const lookup = guardedLookup(policy, config.lookup ?? systemLookup);
  const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 64 });
  const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 64 });

  return (url, headers, body, options) =>
    new Promise<SendResult>((resolve) => {
      const started = performance.now();
      let settled = false;
      const finish = (status: number | null, error: string | null) => {
        if (settled) return;
        settled = true;
        const ok = error === null && status !== null && status >= 200 && status < 300;
        resolve({ ok, status, latencyMs: Math.round(performance.now() - started), error });
      };

      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return finish(null, "refused: not an absolute URL");
      }
      if (target.protocol !== "https:" && target.protocol !== "http:")
        return finish(null, `refused: ${target.protocol} is neither https: nor http:`);
      const refused = refusedHost(target, policy);
      if (refused) return finish(null, refused);
      if (options.signal?.aborted) return finish(null, "aborted before it was sent");

      const https = target.protocol === "https:";
      let answered = false;
      const req = (https ? httpsRequest : httpRequest)(
        target,
        {
          method: "POST",
          agent: https ? httpsAgent : httpAgent,
          lookup,
          headers: {
            ...headers,
            "content-length": String(Buffer.byteLength(body)),
            "user-agent": "Almanac-Webhooks/1",
          },
        },
        (res) => {
          answered = true;
          const status = res.statusCode ?? null;
          finish(status, errorOfStatus(status));
          let read = 0;
          res.on("data", (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_ANSWER_BYTES) res.destroy();
          });
          // The status decided the attempt; a broken answer after it changes nothing.
          res.on("error", () => undefined);
          res.on("close", cleanUp);
        },
      );
      // Past the time limit, or on abort, the attempt fails; once its status came, they only
      // end the reading of the answer.
      const end = (error: string) => {
        finish(null, error);
        req.destroy();
      };
      const timer = setTimeout(() => end(`no answer within ${options.timeoutMs} ms`), options.timeoutMs);
      const onAbort = () => end(`aborted after ${Math.round(performance.now() - started)} ms`);
      options.signal?.addEventListener("abort", onAbort, { once: true });
      function cleanUp() {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
      }
      req.on("error", (err: NodeJS.ErrnoException) => {
        finish(null, describe(err));
        cleanUp();
      });
      req.on("close", () => {
        if (answered) return; // the answer's own close ends the attempt
        finish(null, "connection closed before an answer");
        cleanUp();
      });
      req.end(body);
    });
}

// One sender per configuration, so that callers without one of their own share connections.
const shared = new Map<boolean, WeakMap<LookupFunction, Sender>>();

/** The sender of this configuration, made once per process (and per test lookup). */
export function sharedSender(config: SenderConfig): Sender {
  const lookup = config.lookup ?? systemLookup;
  let byLookup = shared.get(config.allowLoopback);
  if (!byLookup) shared.set(config.allowLoopback, (byLookup = new WeakMap()));
  let sender = byLookup.get(lookup);
  if (!sender) byLookup.set(lookup, (sender = createSender({ allowLoopback: config.allowLoopback, lookup })));
  return sender;
}
