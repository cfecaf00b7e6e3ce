#!/usr/bin/env node
// An outside feed's first fetch on the local server (in a child process): a feed of 5,000 one-off
// events served over https on loopback (a certificate made for the run with openssl, trusted by
// the child through NODE_EXTRA_CA_CERTS, and WEBHOOKS_ALLOW_LOOPBACK=on) is attached as a layer;
// reported: the time from the attach's answer until the layer shows its events, the longest the
// server's event loop was held meanwhile, and /openapi.json's p99 and slowest answer beside it.
//   npm run build && node bench/feed-refresh.mjs        (part of `npm run bench`)
import { execFileSync, fork } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loopDelayOf, pingEvery, serveLocalServer } from "./loop-delay.mjs";

const EVENTS = Number(process.env.FEED_EVENTS ?? 5_000);

/** A key and a certificate for 127.0.0.1, valid a day. */
function selfSigned(dir) {
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
}

const pad = (n) => String(n).padStart(2, "0");

function feedText() {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Almanac//feed bench//EN"];
  for (let i = 0; i < EVENTS; i++) {
    const d = new Date(Date.UTC(2027, 0, 1) + (i % 365) * 86_400_000);
    const day = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
    lines.push(
      "BEGIN:VEVENT",
      `UID:feed-${i}@bench.example`,
      "DTSTAMP:20261101T000000Z",
      `DTSTART:${day}T${pad(8 + (i % 10))}0000Z`,
      "DURATION:PT1H",
      `SUMMARY:Outside event ${i}`,
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR");
  return `${lines.join("\r\n")}\r\n`;
}

export async function benchFeedRefresh() {
  const dir = mkdtempSync(join(tmpdir(), "almanac-feed-bench-"));
  const { key, cert } = selfSigned(dir);
  writeFileSync(join(dir, "ca.pem"), cert);
  const body = feedText();
  const feed = createServer({ key, cert }, (_req, res) => {
    res.writeHead(200, { "content-type": "text/calendar; charset=utf-8", etag: '"v1"' }).end(body);
  });
  await new Promise((done) => feed.listen(0, "127.0.0.1", done));
  const child = fork(fileURLToPath(import.meta.url), ["server"], {
    env: {
      ...process.env,
      DATA_DIR: join(dir, "data"),
      RATE_LIMITS: "off",
      WEBHOOKS_ALLOW_LOOPBACK: "on",
      NODE_EXTRA_CA_CERTS: join(dir, "ca.pem"),
    },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const loopMaxMs = loopDelayOf(child);
  try {
    const { origin } = await new Promise((done, fail) => {
      child.once("message", done);
      child.once("exit", (code) => fail(new Error(`server exited with ${code}`)));
    });
    const call = async (method, path, token, payload) => {
      const res = await fetch(`${origin}${path}`, {
        method,
        headers: {
          "content-type": "application/json",
          ...(method === "POST" ? { "idempotency-key": `${path}-${Math.random()}` } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: payload && JSON.stringify(payload),
      });
      const json = await res.json();
      if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const minted = await call("POST", "/v1/mint", null, { name: "Host" });
    const host = minted.calendar.id;
    await loopMaxMs();
    const others = pingEvery(`${origin}/openapi.json`, 20);
    const url = `https://127.0.0.1:${feed.address().port}/team.ics`;
    await call("POST", `/v1/calendars/${host}/layers`, minted.token, { feed_url: url, key: "outside" });
    const attached = performance.now();
    let layer;
    do {
      await new Promise((done) => setTimeout(done, 20));
      [layer] = (await call("GET", `/v1/calendars/${host}/layers`, minted.token)).layers;
      if (layer.last_error) throw new Error(`the feed failed: ${layer.last_error}`);
    } while (layer.event_count !== EVENTS && performance.now() - attached < 120_000);
    const shownMs = Math.round(performance.now() - attached);
    return {
      events: EVENTS,
      bytes: Buffer.byteLength(body),
      first_fetch_shown_ms: shownMs,
      event_count: layer.event_count,
      loop_max_ms: await loopMaxMs(),
      others: await others.stop(),
    };
  } finally {
    child.kill("SIGTERM");
    feed.closeAllConnections();
    feed.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Last, once every declaration above is initialized.
if (process.argv[2] === "server") await serveLocalServer();
else if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchFeedRefresh());
