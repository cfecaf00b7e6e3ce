/**
 * One POST to a receiver. The connection is refused after DNS when the address is private,
 * loopback (unless allowed), link-local, metadata or otherwise not public
 * (request-filtering-agent judges every address a name resolves to, so DNS rebinding cannot
 * pass); redirects are never followed; at most 4 KB of the answer is read; only a 2xx within
 * the timeout counts as delivered.
 */
import { request as httpRequest, type Agent } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import { LOOPBACK_RANGES } from "./addresses.js";

const MAX_BODY_BYTES = 4096;

export interface SendOptions {
  allowLoopback: boolean;
  timeoutMs: number;
  /** Name resolution for this request (tests resolve a name of their own); DNS when absent. */
  lookup?: LookupFunction;
}

export interface SendResult {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
}

// Kept-alive connections per kind, so a stream's deliveries reuse one socket.
const agents = new Map<string, Agent>();
function agentFor(https: boolean, allowLoopback: boolean): Agent {
  const key = `${https}:${allowLoopback}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = {
      keepAlive: true,
      maxSockets: 64,
      allowPrivateIPAddress: false,
      allowMetaIPAddress: false,
      allowIPAddressList: allowLoopback ? LOOPBACK_RANGES : [],
    };
    agent = https ? new RequestFilteringHttpsAgent(options) : new RequestFilteringHttpAgent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** Why a connection was refused, in words a receiver's owner can act on. */
function describe(err: Error): string {
  if (/is not allowed/.test(err.message))
    return "refused: the host resolves to a private, loopback, link-local or reserved address";
  return err.message || err.name;
}

export function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const target = new URL(url);
  const https = target.protocol === "https:";
  const send = https ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (status: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const ok = status !== null && status >= 200 && status < 300 && error === null;
      resolve({ ok, status, latencyMs: Math.round(performance.now() - started), error });
    };
    const req = send(
      target,
      {
        method: "POST",
        agent: agentFor(https, options.allowLoopback),
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)), "user-agent": "Almanac-Webhooks/1" },
        ...(options.lookup ? { lookup: options.lookup } : {}),
      },
      (res) => {
        const status = res.statusCode ?? null;
        const error =
          status !== null && status >= 300 && status < 400
            ? `redirect (${status}) not followed: deliveries go to the subscribed URL only`
            : status !== null && (status < 200 || status >= 300)
              ? `receiver answered ${status}`
              : null;
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          // The answer's content is not used: past 4 KB the connection is dropped instead of read.
          if (read > MAX_BODY_BYTES) {
            res.destroy();
            finish(status, error);
          }
        });
        res.on("end", () => finish(status, error));
        res.on("error", (err) => finish(status, error ?? describe(err)));
        res.on("close", () => finish(status, error));
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    req.on("error", (err) => finish(null, describe(err)));
    req.end(body);
  });
}
