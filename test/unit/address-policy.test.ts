/**
 * The one address policy of webhooks (functions/src/domain/webhooks/addresses.ts): the verdict
 * on each form of address, as the subscription check and every delivery connection judge it,
 * and the domain making no network call of its own (it is handed a Sender).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  describeJudgement,
  judgeAddress,
  refusedName,
  type AddressClass,
} from "../../functions/src/domain/webhooks/addresses.js";

const OFF = { allowLoopback: false };
const ON = { allowLoopback: true };

// Teredo server 65.54.227.120, client 127.0.0.1 (stored inverted: 80ff:fffe).
const TEREDO_LOOPBACK = "2001:0:4136:e378:8000:63bf:80ff:fffe";

describe("judgeAddress", () => {
  const refused: Array<[string, AddressClass, string | null]> = [
    ["127.0.0.1", "loopback", null],
    ["127.8.9.10", "loopback", null],
    ["::1", "loopback", null],
    ["::ffff:127.0.0.1", "loopback", "IPv4-mapped"],
    ["::127.0.0.1", "loopback", "IPv4-compatible"],
    ["::ffff:0:127.0.0.1", "loopback", "IPv4-translated"],
    ["64:ff9b::127.0.0.1", "loopback", "NAT64"],
    ["2002:7f00:1::", "loopback", "6to4"],
    [TEREDO_LOOPBACK, "loopback", "Teredo"],
    ["10.1.2.3", "private", null],
    ["172.16.0.1", "private", null],
    ["172.31.255.254", "private", null],
    ["192.168.1.1", "private", null],
    ["::ffff:10.0.0.1", "private", "IPv4-mapped"],
    ["64:ff9b::a00:1", "private", "NAT64"],
    ["2002:c0a8:101::1", "private", "6to4"],
    ["fec0::1", "private", null],
    ["169.254.10.1", "link-local", null],
    ["fe80::1", "link-local", null],
    ["fe80::1%eth0", "link-local", null],
    ["100.64.0.1", "cgnat", null],
    ["100.127.255.1", "cgnat", null],
    ["198.18.0.1", "benchmarking", null],
    ["198.19.255.254", "benchmarking", null],
    ["2001:2::1", "benchmarking", null],
    ["fc00::1", "unique-local", null],
    ["fd12:3456::1", "unique-local", null],
    ["224.0.0.1", "multicast", null],
    ["ff02::1", "multicast", null],
    ["0.0.0.0", "unspecified", null],
    ["0.1.2.3", "unspecified", null],
    ["::", "unspecified", null],
    ["255.255.255.255", "broadcast", null],
    ["169.254.169.254", "metadata", null],
    ["::ffff:169.254.169.254", "metadata", "IPv4-mapped"],
    ["fd00:ec2::254", "metadata", null],
    ["192.0.2.1", "reserved", null],
    ["240.0.0.1", "reserved", null],
    ["2001:db8::1", "reserved", null],
    ["100::1", "reserved", null],
    ["1::1", "reserved", null],
    ["64:ff9b:1::1", "reserved", null],
    // Deprecated embeddings of a public address: refused whole.
    ["::8.8.8.8", "reserved", "IPv4-compatible"],
    ["2002:808:808::1", "reserved", "6to4"],
    ["not an address", "reserved", null],
  ];

  it("refuses every non-public form, embedded IPv4 judged as itself, and says what it is", () => {
    for (const [ip, kind, via] of refused) {
      expect(judgeAddress(ip, OFF), ip).toEqual({ allowed: false, kind, via });
    }
    expect(describeJudgement(judgeAddress("2002:7f00:1::", OFF))).toBe("a loopback address inside a 6to4 IPv6 address");
    expect(describeJudgement(judgeAddress("::127.0.0.1", OFF))).toBe(
      "a loopback address inside an IPv4-compatible IPv6 address",
    );
  });

  it("allows public unicast only: IPv4, IPv6 in 2000::/3, IPv4-mapped and NAT64 of a public IPv4", () => {
    for (const ip of [
      "8.8.8.8",
      "172.32.0.1",
      "100.128.0.1",
      "2606:4700:4700::1111",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
    ])
      expect(judgeAddress(ip, OFF).allowed, ip).toBe(true);
  });

  it("with loopback allowed, lets 127/8, ::1 and mapped loopback through, and nothing else", () => {
    for (const ip of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"])
      expect(judgeAddress(ip, ON).allowed, ip).toBe(true);
    for (const ip of ["::127.0.0.1", "::ffff:0:127.0.0.1", "64:ff9b::127.0.0.1", "2002:7f00:1::", TEREDO_LOOPBACK])
      expect(judgeAddress(ip, ON), ip).toMatchObject({ allowed: false, kind: "loopback" });
    for (const ip of ["10.0.0.1", "169.254.169.254", "fe80::1", "198.18.0.1"])
      expect(judgeAddress(ip, ON).allowed, ip).toBe(false);
  });
});

describe("refusedName", () => {
  it("refuses trailing-dot names, metadata names, and loopback names unless loopback is allowed", () => {
    expect(refusedName("localhost.", ON)).toMatch(/end with a dot/);
    expect(refusedName("hooks.example.com.", OFF)).toMatch(/end with a dot/);
    expect(refusedName("metadata.google.internal", ON)).toMatch(/metadata/);
    expect(refusedName("METADATA.google.internal", OFF)).toMatch(/metadata/);
    expect(refusedName("metadata", OFF)).toMatch(/metadata/);
    expect(refusedName("localhost", OFF)).toMatch(/loopback/);
    expect(refusedName("app.localhost", OFF)).toMatch(/loopback/);
    expect(refusedName("localhost", ON)).toBeNull();
    expect(refusedName("hooks.example.com", OFF)).toBeNull();
  });
});

describe("the domain makes no network call", () => {
  const NETWORK = /from "(node:)?(http|https|net|dns|tls|dgram)"|from "request-filtering-agent"|outbound\//;

  it("imports neither node's network modules nor outbound/ (only types from node:net)", () => {
    const root = join(import.meta.dirname, "../../functions/src/domain");
    const offending = readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .flatMap((file) =>
        readFileSync(join(root, file), "utf8")
          .split("\n")
          .filter((line) => /^import\s/.test(line) && !/^import type\s/.test(line) && NETWORK.test(line))
          .map((line) => `${file}: ${line}`),
      );
    expect(offending).toEqual([]);
  });
});
