/**
 * The GET of an outside iCalendar feed (docs/decisions/feeds.md), beside fetch-document.ts and
 * under the same address policy as webhooks (domain/webhooks/addresses.ts): the host judged
 * before any lookup, every address it resolves to at each connection (outbound/lookup.ts).
 * https only; conditional (If-None-Match, If-Modified-Since), so an unchanged feed answers 304
 * and costs nothing more; up to 3 redirects, each judged as the first URL; the whole fetch
 * within `timeoutMs` and at most `maxBytes` of body, else it fails with the reason.
 */
import { request, type RequestOptions } from "node:https";
import type { LookupFunction } from "node:net";
import type { AddressPolicy } from "../domain/webhooks/addresses.js";
import { FEED_FETCH_TIMEOUT_MS, MAX_FEED_BYTES } from "../domain/feeds/limits.js";
import { guardedLookup, systemLookup } from "./lookup.js";
import { refusedHost } from "./send.js";

/** What the copy held says of itself, sent back so that the server may answer 304. */
export interface FeedValidators {
  etag: string | null;
  lastModified: string | null;
}

export type FetchedFeed =
  | { outcome: "changed"; text: string; validators: FeedValidators }
  | { outcome: "unchanged" }
  | { outcome: "failed"; error: string };

export type FeedFetcher = (url: string, held: FeedValidators) => Promise<FetchedFeed>;

export interface FeedFetcherConfig {
  /** Loopback hosts allowed (`WEBHOOKS_ALLOW_LOOPBACK=on`: local runs and tests only); still https. */
  allowLoopback: boolean;
  /** Name resolution (tests resolve names of their own); the system's DNS when absent. */
  lookup?: LookupFunction;
  /** Certificates to trust besides the system's (a test server's self-signed one). */
  ca?: string;
  timeoutMs?: number;
  maxBytes?: number;
}

const MAX_REDIRECTS = 3;

export function createFeedFetcher(config: FeedFetcherConfig): FeedFetcher {
  const policy: AddressPolicy = { allowLoopback: config.allowLoopback };
  const lookup = guardedLookup(policy, config.lookup ?? systemLookup);
  const timeoutMs = config.timeoutMs ?? FEED_FETCH_TIMEOUT_MS;
  const maxBytes = config.maxBytes ?? MAX_FEED_BYTES;
  return async (url, held) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      let target = url;
      for (let redirects = 0; ; redirects++) {
        const options = { policy, lookup, ca: config.ca, maxBytes, signal: controller.signal };
        const answer = await getOnce(target, held, options);
        if (answer.outcome !== "redirect") return answer;
        if (redirects === MAX_REDIRECTS) return failed(`more than ${MAX_REDIRECTS} redirects`);
        target = answer.location;
      }
    } catch (err) {
      if (controller.signal.aborted) return failed(`no whole answer within ${timeoutMs / 1000} s`);
      return failed(err instanceof Error ? err.message || String((err as NodeJS.ErrnoException).code) : String(err));
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The address policy's reasons name webhooks, whose policy it is first: here it judges a feed. */
const failed = (error: string): FetchedFeed => ({
  outcome: "failed",
  error: error.replace("a webhook host", "a feed host"),
});

type Answer = FetchedFeed | { outcome: "redirect"; location: string };

interface GetOptions {
  policy: AddressPolicy;
  lookup: LookupFunction;
  ca: string | undefined;
  maxBytes: number;
  signal: AbortSignal;
}

/** One GET: the body of a 200, a 304, where a redirect points (resolved against `url`), or why it failed. */
function getOnce(url: string, held: FeedValidators, options: GetOptions): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const target = URL.canParse(url) ? new URL(url) : null;
    if (!target || target.protocol !== "https:") return resolve(failed("refused: not an https URL"));
    const refused = refusedHost(target, options.policy);
    if (refused) return resolve(failed(refused));
    const headers: Record<string, string> = {
      accept: "text/calendar, */*;q=0.5",
      "user-agent": "Almanac-Feeds/1",
      ...(held.etag ? { "if-none-match": held.etag } : {}),
      ...(held.lastModified ? { "if-modified-since": held.lastModified } : {}),
    };
    const requestOptions: RequestOptions = { method: "GET", lookup: options.lookup, headers, signal: options.signal };
    if (options.ca) requestOptions.ca = options.ca;
    const req = request(target, requestOptions, (res) => {
      const status = res.statusCode ?? 0;
      if (status === 304) {
        res.resume();
        return resolve({ outcome: "unchanged" });
      }
      if (status >= 300 && status < 400) {
        res.resume();
        const location = res.headers.location;
        if (!location || !URL.canParse(location, target.href))
          return resolve(failed(`redirect (${status}) without a location`));
        return resolve({ outcome: "redirect", location: new URL(location, target).href });
      }
      if (status !== 200) {
        res.resume();
        return resolve(failed(`the feed's server answered ${status}`));
      }
      const chunks: Buffer[] = [];
      let read = 0;
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > options.maxBytes) {
          res.destroy();
          resolve(failed(`the feed is larger than ${sizeWords(options.maxBytes)}`));
        } else chunks.push(chunk);
      });
      res.on("end", () =>
        resolve({
          outcome: "changed",
          text: Buffer.concat(chunks).toString("utf8"),
          validators: { etag: headerOf(res.headers.etag), lastModified: headerOf(res.headers["last-modified"]) },
        }),
      );
      res.on("error", reject);
    });
    // A refused address fails the connection with the policy's reason as its message.
    req.on("error", reject);
    req.end();
  });
}

const headerOf = (value: string | string[] | undefined): string | null =>
  typeof value === "string" && value.length > 0 && value.length <= 1000 ? value : null;

const MB = 1024 * 1024;
const sizeWords = (bytes: number): string => (bytes % MB === 0 ? `${bytes / MB} MB` : `${bytes} bytes`);
