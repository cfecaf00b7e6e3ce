/**
 * The one address policy of webhooks (docs/api.md#webhooks): which hosts a delivery may reach.
 * The subscription check (url.ts) and every connection (outbound/lookup.ts, outbound/send.ts)
 * judge with these same functions, a name on the addresses it resolves to, so that neither a
 * name nor a spelling of an address nor DNS rebinding gets past one and not the other.
 *
 * Only public unicast addresses pass: IPv4 outside the special ranges, IPv6 in 2000::/3 outside
 * them. Loopback passes only when the local `WEBHOOKS_ALLOW_LOOPBACK=on` allows it, and only as
 * 127/8, ::1 or IPv4-mapped 127/8. An IPv4 address embedded in IPv6 (IPv4-mapped, -compatible,
 * -translated, NAT64, 6to4, Teredo) is judged as that IPv4; the deprecated embeddings (all but
 * mapped and NAT64) are refused whatever they embed.
 */
import ipaddr from "ipaddr.js";

export type AddressClass =
  | "loopback"
  | "private"
  | "link-local"
  | "cgnat"
  | "unique-local"
  | "multicast"
  | "unspecified"
  | "broadcast"
  | "benchmarking"
  | "metadata"
  | "reserved"
  | "public";

/** How an IPv4 address sits inside the IPv6 address that was judged. */
export type Embedding = "IPv4-mapped" | "IPv4-compatible" | "IPv4-translated" | "NAT64" | "6to4" | "Teredo";

export interface AddressPolicy {
  /** Loopback (127/8, ::1, ::ffff:127/104) may be reached: local runs and tests only. */
  allowLoopback: boolean;
}

export interface AddressJudgement {
  allowed: boolean;
  kind: AddressClass;
  /** Set when an IPv4 address embedded in an IPv6 one was judged. */
  via: Embedding | null;
}

const KIND_WORDS: Record<AddressClass, string> = {
  loopback: "a loopback address",
  private: "a private address",
  "link-local": "a link-local address",
  cgnat: "a carrier-grade NAT address (100.64.0.0/10)",
  "unique-local": "a unique-local address",
  multicast: "a multicast address",
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  benchmarking: "a benchmarking address (198.18.0.0/15, 2001:2::/48)",
  metadata: "a cloud metadata address",
  reserved: "a reserved or non-routable address",
  public: "a public address",
};

/** "a loopback address", "a loopback address inside a 6to4 IPv6 address". */
export function describeJudgement(judgement: AddressJudgement): string {
  const what = KIND_WORDS[judgement.kind];
  if (!judgement.via) return what;
  return `${what} inside ${judgement.via.startsWith("IPv4") ? "an" : "a"} ${judgement.via} IPv6 address`;
}

/** Cloud metadata endpoints (GCP, AWS, Azure; AWS ECS; Alibaba; AWS over IPv6). */
const METADATA_V4 = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200"]);
const METADATA_V6 = ["fd00:ec2::254"].map((a) => ipaddr.IPv6.parse(a));
const isMetadataV6 = (address: ipaddr.IPv6) =>
  METADATA_V6.some((m) => m.parts.every((part, i) => part === address.parts[i]));
const BENCHMARKING_V4 = ipaddr.parseCIDR("198.18.0.0/15") as [ipaddr.IPv4, number];

function classifyV4(address: ipaddr.IPv4): AddressClass {
  if (METADATA_V4.has(address.toString())) return "metadata";
  const range = address.range();
  switch (range) {
    case "unicast":
      return "public";
    case "loopback":
    case "private":
    case "multicast":
    case "unspecified":
    case "broadcast":
      return range;
    case "linkLocal":
      return "link-local";
    case "carrierGradeNat":
      return "cgnat";
    default:
      // reserved (198.18/15, documentation, 192.0.0/24, 240/4...), as112, amt.
      return address.match(BENCHMARKING_V4) ? "benchmarking" : "reserved";
  }
}

const v4From = (high: number, low: number) => ipaddr.IPv4.parse(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);

/** The IPv4 address an IPv6 one carries, and how, or null when it carries none. */
function embeddedV4(address: ipaddr.IPv6, range: string): { v4: ipaddr.IPv4; via: Embedding } | null {
  const p = address.parts;
  if (range === "ipv4Mapped") return { v4: v4From(p[6], p[7]), via: "IPv4-mapped" };
  if (range === "rfc6145") return { v4: v4From(p[6], p[7]), via: "IPv4-translated" };
  // 64:ff9b::/96 only; the local-use 64:ff9b:1::/48 (RFC 8215) may embed anywhere and is refused whole.
  if (range === "rfc6052" && p[2] === 0) return { v4: v4From(p[6], p[7]), via: "NAT64" };
  if (range === "6to4") return { v4: v4From(p[1], p[2]), via: "6to4" };
  // Teredo: the client's address is the last 32 bits, inverted.
  if (range === "teredo") return { v4: v4From(p[6] ^ 0xffff, p[7] ^ 0xffff), via: "Teredo" };
  // IPv4-compatible (::a.b.c.d, deprecated): 96 zero bits, but not :: and ::1.
  if (range === "unicast" && p.slice(0, 6).every((x) => x === 0))
    return { v4: v4From(p[6], p[7]), via: "IPv4-compatible" };
  return null;
}

function classifyV6(address: ipaddr.IPv6): AddressClass {
  if (isMetadataV6(address)) return "metadata";
  // Typed without the ranges the library's declarations leave out (deprecatedSiteLocal...).
  const range: string = address.range();
  switch (range) {
    case "unicast":
      // Only 2000::/3 is global unicast; the rest of the space is unassigned.
      return (address.parts[0] & 0xe000) === 0x2000 ? "public" : "reserved";
    case "loopback":
    case "multicast":
    case "unspecified":
    case "benchmarking":
      return range;
    case "linkLocal":
      return "link-local";
    case "uniqueLocal":
      return "unique-local";
    case "deprecatedSiteLocal":
      return "private";
    default:
      return "reserved";
  }
}

/**
 * An IPv6 text with a dotted IPv4 tail written as two hex groups: ipaddr.js reads `::a.b.c.d`
 * (IPv4-compatible) as `::ffff:a.b.c.d` (IPv4-mapped), which is not the address connected to.
 */
function hexTail(text: string): string | null {
  const tail = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(%.*)?$/.exec(text);
  if (!tail) return text;
  const [a, b, c, d] = tail.slice(1, 5).map(Number);
  if ([a, b, c, d].some((n) => n > 255)) return null;
  const groups = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  return `${text.slice(0, tail.index)}${groups}${tail[5] ?? ""}`;
}

/** A literal IP address (IPv4 dotted-quad, IPv6 with or without brackets and zone), or null. */
export function parseIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  if (!bare.includes(":")) return null;
  const v6 = hexTail(bare);
  return v6 !== null && ipaddr.IPv6.isValid(v6) ? ipaddr.IPv6.parse(v6) : null;
}

/**
 * The verdict on one address, as connected to (after DNS for a name). Text that is not an IP
 * address is refused as reserved: this judges addresses, never names.
 */
export function judgeAddress(ip: string, policy: AddressPolicy): AddressJudgement {
  const address = parseIp(ip);
  if (address === null) return { allowed: false, kind: "reserved", via: null };
  if (address.kind() === "ipv4") {
    const kind = classifyV4(address as ipaddr.IPv4);
    return { allowed: kind === "public" || (kind === "loopback" && policy.allowLoopback), kind, via: null };
  }
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedV4(v6, v6.range());
  if (embedded) {
    const kind = classifyV4(embedded.v4);
    // A mapped address reaches the IPv4 itself (on a dual-stack socket), so it is that address;
    // NAT64 reaches it through a translator, public only; the deprecated embeddings, never.
    const allowed =
      embedded.via === "IPv4-mapped"
        ? kind === "public" || (kind === "loopback" && policy.allowLoopback)
        : embedded.via === "NAT64" && kind === "public";
    return { allowed, kind: allowed || kind !== "public" ? kind : "reserved", via: embedded.via };
  }
  const kind = classifyV6(v6);
  return { allowed: kind === "public" || (kind === "loopback" && policy.allowLoopback), kind, via: null };
}

/** Names of cloud metadata endpoints, refused whatever they resolve to. */
export const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
]);

/**
 * Why a host name may not be reached whatever it resolves to (as a sentence's end: "must not
 * ..."), or null. A name that passes is judged again on every address it resolves to.
 */
export function refusedName(name: string, policy: AddressPolicy): string | null {
  const host = name.toLowerCase();
  if (host.endsWith(".")) return "end with a dot: write the host name without it";
  if (METADATA_NAMES.has(host)) return "name a cloud metadata endpoint";
  if ((host === "localhost" || host.endsWith(".localhost")) && !policy.allowLoopback) return "name a loopback host";
  return null;
}
