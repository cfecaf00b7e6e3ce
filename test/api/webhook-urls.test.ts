/**
 * The webhook URLs refused at subscription (docs/api.md#webhooks): POST and PATCH
 * /v1/webhooks judge a URL by the one address policy deliveries connect under
 * (functions/src/domain/webhooks/addresses.ts), a literal address as itself and a name on every
 * address it resolves to (here by a test lookup, through the same resolution deliveries use).
 * Every refusal is 400 invalid_request on `url`, saying why.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { resolverFor } from "../../functions/src/outbound/lookup.js";
import { appPerTest } from "../helpers/app.js";
import { loopbackConfig } from "../helpers/config.js";
import { lookupFrom } from "../helpers/lookup.js";
import { sharingWorld, type SharingWorld } from "../helpers/factories.js";
import { patch, post } from "../helpers/http.js";

const t = appPerTest();
let world: SharingWorld;
const URL_OK = "https://hooks.example.com/almanac";

/** Test names, each resolving to the addresses listed; any other name does not resolve. */
const NAMES: Record<string, string[]> = {
  "public.example.test": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  "loop.example.test": ["127.0.0.1"],
  "loop6.example.test": ["::1"],
  "mapped.example.test": ["::ffff:127.0.0.1"],
  "mixed.example.test": ["93.184.215.14", "127.0.0.1"],
  "private.example.test": ["10.0.0.1"],
  "metadata.example.test": ["169.254.169.254"],
  "bench.example.test": ["198.18.0.1"],
};
const testLookup = lookupFrom(NAMES);

beforeEach(async () => {
  world = await sharingWorld(t);
  t.deps.resolveHost = resolverFor(testLookup);
});

const create = (body: Record<string, unknown>, auth = world.reader.auth) => post(t, "/v1/webhooks", auth).send(body);

/** [url, what the message must say]. */
const REFUSED: Array<[string, RegExp]> = [
  ["not a url", /absolute https: URL/],
  ["ftp://hooks.example.com/x", /must use https:/],
  ["http://hooks.example.com/x", /must use https:/],
  ["https://user:pw@hooks.example.com/x", /user name or password/],
  ["https://localhost/x", /loopback host/],
  ["https://localhost./x", /end with a dot/],
  ["https://hooks.example.com./x", /end with a dot/],
  ["https://app.localhost/x", /loopback host/],
  ["https://127.0.0.1/x", /loopback address/],
  ["https://127.8.9.10/x", /loopback address/],
  ["https://2130706433/x", /loopback address/],
  ["https://[::1]/x", /loopback address/],
  ["https://[::ffff:127.0.0.1]/x", /loopback address inside an IPv4-mapped IPv6 address/],
  ["https://[::127.0.0.1]/x", /loopback address inside an IPv4-compatible IPv6 address/],
  ["https://[::ffff:0:127.0.0.1]/x", /loopback address inside an IPv4-translated IPv6 address/],
  ["https://[64:ff9b::127.0.0.1]/x", /loopback address inside a NAT64 IPv6 address/],
  ["https://[2002:7f00:1::]/x", /loopback address inside a 6to4 IPv6 address/],
  ["https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x", /loopback address inside a Teredo IPv6 address/],
  ["https://198.18.0.1/x", /benchmarking address/],
  ["https://198.19.255.254/x", /benchmarking address/],
  ["https://10.1.2.3/x", /private address/],
  ["https://172.16.0.1/x", /private address/],
  ["https://172.31.255.254/x", /private address/],
  ["https://192.168.1.1/x", /private address/],
  ["https://[::ffff:10.0.0.1]/x", /private address/],
  ["https://169.254.10.1/x", /link-local address/],
  ["https://[fe80::1]/x", /link-local address/],
  ["https://100.64.0.1/x", /carrier-grade NAT/],
  ["https://100.127.255.1/x", /carrier-grade NAT/],
  ["https://[fc00::1]/x", /unique-local address/],
  ["https://[fd12:3456::1]/x", /unique-local address/],
  ["https://224.0.0.1/x", /multicast address/],
  ["https://[ff02::1]/x", /multicast address/],
  ["https://0.0.0.0/x", /unspecified address/],
  ["https://[::]/x", /unspecified address/],
  ["https://192.0.2.1/x", /reserved/],
  ["https://[2001:db8::1]/x", /reserved/],
  ["https://169.254.169.254/latest/meta-data", /cloud metadata address/],
  ["https://[::ffff:169.254.169.254]/x", /cloud metadata address/],
  ["https://[fd00:ec2::254]/x", /cloud metadata address/],
  ["https://metadata.google.internal/computeMetadata/v1", /cloud metadata endpoint/],
  ["https://metadata.google.internal./computeMetadata/v1", /end with a dot/],
  ["https://loop.example.test/x", /resolves to a loopback address/],
  ["https://loop6.example.test/x", /resolves to a loopback address/],
  ["https://mapped.example.test/x", /resolves to a loopback address inside an IPv4-mapped/],
  ["https://mixed.example.test/x", /resolves to a loopback address/],
  ["https://private.example.test/x", /resolves to a private address/],
  ["https://metadata.example.test/x", /resolves to a cloud metadata address/],
  ["https://bench.example.test/x", /resolves to a benchmarking address/],
];

describe("URLs refused at subscription", () => {
  it("refuses every non-public form, literal or resolved, with one code and a message saying why", async () => {
    const cal = world.calendars.unlisted.id;
    for (const [url, why] of REFUSED) {
      const res = await create({ url, calendars: [cal] });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code, url).toBe("invalid_request");
      expect(res.body.error.details.field, url).toBe("url");
      expect(res.body.error.message, url).toMatch(why);
      expect(res.body.error.message, url).toMatch(/\(see \/docs\/webhooks\.md#the-url\)$/);
    }
  });

  it("never names the address a name resolves to (the service's DNS stays its own)", async () => {
    const res = await create({ url: "https://private.example.test/x", calendars: [world.calendars.unlisted.id] });
    expect(res.body.error.message).not.toContain("10.0.0.1");
  });

  it("takes public addresses and names, and a name that does not resolve yet (judged at each delivery)", async () => {
    const cal = world.calendars.unlisted.id;
    for (const url of [
      "https://172.32.0.1/x",
      "https://100.128.0.1/x",
      "https://[2606:4700:4700::1111]/x",
      "https://[::ffff:8.8.8.8]/x",
      "https://[64:ff9b::808:808]/x",
      "https://8.8.8.8/",
      "https://public.example.test/x",
      URL_OK,
    ]) {
      expect((await create({ url, calendars: [cal] })).status, url).toBe(200);
    }
  });

  it("PATCH judges a new URL the same way", async () => {
    const hook = (await create({ url: URL_OK, calendars: [world.calendars.unlisted.id] })).body.webhook;
    const path = `/v1/webhooks/${hook.id}`;
    for (const [url, why] of [
      ["https://loop.example.test/x", /resolves to a loopback address/],
      ["https://[64:ff9b::127.0.0.1]/x", /NAT64/],
      ["https://localhost./x", /end with a dot/],
    ] as const) {
      const res = await patch(t, path, world.reader.auth).send({ url });
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toMatchObject({ code: "invalid_request", details: { field: "url" } });
      expect(res.body.error.message, url).toMatch(why);
      expect(res.body.error.message, url).toMatch(/\(see \/docs\/webhooks\.md#the-url\)$/);
    }
    expect((await patch(t, path, world.reader.auth).send({ url: "https://public.example.test/v2" })).body.url).toBe(
      "https://public.example.test/v2",
    );
  });

  it("with WEBHOOKS_ALLOW_LOOPBACK=on also takes http: and loopback, and nothing else private", async () => {
    t.deps.config = loopbackConfig();
    const cal = world.calendars.unlisted.id;
    for (const url of [
      "http://127.0.0.1:9/x",
      "http://localhost:9/x",
      "http://[::1]:9/x",
      "http://[::ffff:127.0.0.1]:9/x",
      "http://loop.example.test:9/x",
      "http://hooks.example.com/",
    ])
      expect((await create({ url, calendars: [cal] })).status, url).toBe(200);
    for (const url of [
      "http://10.0.0.1/x",
      "http://192.168.0.1/",
      "http://169.254.169.254/",
      "http://[fe80::1]/x",
      "http://localhost.:9/x",
      "http://[::127.0.0.1]:9/x",
      "http://[64:ff9b::127.0.0.1]:9/x",
      "http://[2002:7f00:1::]:9/x",
      "http://198.18.0.1/x",
      "http://private.example.test/x",
      "http://metadata.example.test/x",
    ]) {
      const res = await create({ url, calendars: [cal] });
      expect(res.status, url).toBe(400);
      expect(res.body.error?.details?.field, url).toBe("url");
    }
  });
});
