/**
 * An outside iCalendar feed for tests: https on 127.0.0.1 with a certificate made for it
 * (openssl, valid a day), serving `body` with an ETag and Last-Modified, answering 304 to a
 * request that sends them back, and counting requests. `answer` overrides the next answers.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface FeedServer {
  /** https://127.0.0.1:{port}/team.ics */
  url: string;
  /** The certificate the fetcher must trust (`ca`). */
  ca: string;
  /** What GET answers with 200; its ETag is its hash, so a new body is a new version. */
  body: string;
  /** Requests received, with the validators they sent. */
  requests: { ifNoneMatch: string | null; ifModifiedSince: string | null }[];
  /** An answer other than the feed's (a failure, a redirect, a slow one), or null for the feed. */
  answer: { status: number; text?: string; headers?: Record<string, string>; delayMs?: number } | null;
  close: () => Promise<void>;
}

const LAST_MODIFIED = "Sun, 22 Nov 2026 09:00:00 GMT";

/** A key and a self-signed certificate for 127.0.0.1 and localhost. */
function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "almanac-feed-cert-"));
  try {
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
        ...["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "1"],
        ...["-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
      ],
      { stdio: "ignore" },
    );
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startFeedServer(body: string): Promise<FeedServer> {
  const { key, cert } = selfSigned();
  const feed: FeedServer = {
    url: "",
    ca: cert,
    body,
    requests: [],
    answer: null,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
  const server: Server = createServer({ key, cert }, (req, res) => {
    const ifNoneMatch = req.headers["if-none-match"] ?? null;
    feed.requests.push({ ifNoneMatch, ifModifiedSince: req.headers["if-modified-since"] ?? null });
    const answer = feed.answer;
    if (answer) {
      const send = () => res.writeHead(answer.status, answer.headers).end(answer.text ?? "");
      return void (answer.delayMs ? setTimeout(send, answer.delayMs) : send());
    }
    const etag = `"${createHash("sha256").update(feed.body).digest("hex").slice(0, 16)}"`;
    if (ifNoneMatch === etag) return res.writeHead(304, { etag }).end();
    res.writeHead(200, { "content-type": "text/calendar; charset=utf-8", etag, "last-modified": LAST_MODIFIED });
    res.end(feed.body);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  feed.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/team.ics`;
  return feed;
}

/** An iCalendar text of the events given, each a VEVENT in UTC, named "Team, Berlin" (X-WR-CALNAME). */
export function icsOf(events: { uid: string; summary: string; start: string; end: string; rrule?: string }[]): string {
  const stamp = (iso: string) => iso.replace(/[-:]/g, "").replace(/\.\d+/, "");
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Almanac tests//Feed//EN", "X-WR-CALNAME:Team\\, Berlin"];
  for (const e of events) {
    lines.push("BEGIN:VEVENT", `UID:${e.uid}`, "DTSTAMP:20261101T000000Z", `SUMMARY:${e.summary}`);
    lines.push(`DTSTART:${stamp(e.start)}`, `DTEND:${stamp(e.end)}`);
    if (e.rrule) lines.push(`RRULE:${e.rrule}`);
    lines.push("END:VEVENT");
  }
  lines.push("END:VCALENDAR");
  return `${lines.join("\r\n")}\r\n`;
}
