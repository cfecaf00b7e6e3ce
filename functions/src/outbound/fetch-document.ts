/**
 * GET of a small document on another host: an OAuth client's metadata document
 * (docs/mcp.md#authorization). Judged by the webhook address policy
 * (domain/webhooks/addresses.ts), as the webhook sender is: the host before any lookup, every
 * address it resolves to at connection (outbound/lookup.ts). https only, no redirect followed,
 * an answer within `timeoutMs` and at most `maxBytes`, else refused.
 */
import { request } from "node:https";
import type { LookupFunction } from "node:net";
import type { AddressPolicy } from "../domain/webhooks/addresses.js";
import { guardedLookup, systemLookup } from "./lookup.js";
import { refusedHost } from "./send.js";

export type FetchedDocument = { ok: true; status: number; text: string } | { ok: false; error: string };

/** One GET of `url`, answered with its status and text, or why it could not be read. */
export type DocumentFetcher = (url: string) => Promise<FetchedDocument>;

export interface DocumentFetcherConfig {
  allowLoopback: boolean;
  lookup?: LookupFunction;
  timeoutMs?: number;
  maxBytes?: number;
}

export function createDocumentFetcher(config: DocumentFetcherConfig): DocumentFetcher {
  const policy: AddressPolicy = { allowLoopback: config.allowLoopback };
  const lookup = guardedLookup(policy, config.lookup ?? systemLookup);
  const timeoutMs = config.timeoutMs ?? 5_000;
  const maxBytes = config.maxBytes ?? 16 * 1024;
  return (url) =>
    new Promise<FetchedDocument>((resolve) => {
      const target = URL.canParse(url) ? new URL(url) : null;
      if (!target || target.protocol !== "https:") return resolve({ ok: false, error: "refused: not an https URL" });
      const refused = refusedHost(target, policy);
      if (refused) return resolve({ ok: false, error: refused });
      let settled = false;
      const finish = (result: FetchedDocument) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const req = request(target, { method: "GET", lookup, headers: { accept: "application/json" } }, (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > maxBytes) {
            finish({ ok: false, error: `the document is larger than ${maxBytes} bytes` });
            res.destroy();
          } else chunks.push(chunk);
        });
        res.on("end", () =>
          finish({ ok: true, status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", (err) => finish({ ok: false, error: err.message }));
      });
      const timer = setTimeout(() => {
        finish({ ok: false, error: `no answer within ${timeoutMs} ms` });
        req.destroy();
      }, timeoutMs);
      // A refused address fails the connection with the policy's reason as its message.
      req.on("error", (err: NodeJS.ErrnoException) => finish({ ok: false, error: err.message || String(err.code) }));
      req.end();
    });
}
