import { ipKeyGenerator } from "express-rate-limit";
import type { Request } from "express";
import { describe, expect, it } from "vitest";
import { clientAddress } from "../../functions/src/http/rate-limit.js";

const request = (ip: string | undefined, peer = "198.51.100.7") =>
  ({ ip, socket: { remoteAddress: peer } }) as unknown as Request;

describe("clientAddress (the rate limits' key of an address)", () => {
  it("keys an IPv4 client seen through an IPv6 socket (`::ffff:a.b.c.d`) by its IPv4 address, as ipKeyGenerator does", () => {
    expect(clientAddress(request("::ffff:203.0.113.9"))).toBe("203.0.113.9");
    expect(clientAddress(request("::ffff:203.0.113.9"))).toBe(ipKeyGenerator("::ffff:203.0.113.9", 56));
    expect(clientAddress(request(undefined, "::ffff:127.0.0.1"))).toBe("127.0.0.1");
  });

  it("keys IPv4 by the address, IPv6 by its /56, and anything else by the socket's peer", () => {
    expect(clientAddress(request("203.0.113.9"))).toBe("203.0.113.9");
    expect(clientAddress(request("2001:db8:0:ff::1"))).toBe(clientAddress(request("2001:db8:0:ff:abcd::2")));
    expect(clientAddress(request("2001:db8:0:ff::1"))).not.toBe(clientAddress(request("2001:db8:0:100::1")));
    expect(clientAddress(request("::ffff:not-an-address"))).toBe("198.51.100.7");
    expect(clientAddress(request("garbage", "garbage"))).toBe("unknown");
  });
});
