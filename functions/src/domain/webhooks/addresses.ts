/**
 * Which literal addresses a webhook may never reach (docs/api.md#webhooks): loopback (unless
 * WEBHOOKS_ALLOW_LOOPBACK), private, link-local, CGNAT, unique-local, multicast, unspecified,
 * and the cloud metadata addresses. An IPv4-mapped IPv6 address is judged as its IPv4.
 */
import { isIP } from "node:net";

export type AddressClass =
  | "loopback"
  | "private"
  | "link-local"
  | "cgnat"
  | "unique-local"
  | "multicast"
  | "unspecified"
  | "metadata"
  | "reserved"
  | "public";

const v4Number = (address: string): number => address.split(".").reduce((n, part) => n * 256 + Number(part), 0) >>> 0;

const inV4 = (n: number, base: string, bits: number): boolean => {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (n & mask) >>> 0 === (v4Number(base) & mask) >>> 0;
};

function classifyV4(address: string): AddressClass {
  const n = v4Number(address);
  if (address === "169.254.169.254") return "metadata";
  if (inV4(n, "0.0.0.0", 8)) return "unspecified";
  if (inV4(n, "127.0.0.0", 8)) return "loopback";
  if (inV4(n, "10.0.0.0", 8) || inV4(n, "172.16.0.0", 12) || inV4(n, "192.168.0.0", 16)) return "private";
  if (inV4(n, "169.254.0.0", 16)) return "link-local";
  if (inV4(n, "100.64.0.0", 10)) return "cgnat";
  if (inV4(n, "224.0.0.0", 4)) return "multicast";
  if (inV4(n, "240.0.0.0", 4)) return "reserved";
  return "public";
}

/** The eight 16-bit groups of an IPv6 address (with `::` expanded and a dotted IPv4 tail). */
function groupsOf(address: string): number[] {
  let text = address.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const n = v4Number(tail[1]);
    text = `${text.slice(0, -tail[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, rest] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = rest ? rest.split(":") : [];
  const fill = rest === undefined ? [] : new Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...fill, ...right].map((g) => parseInt(g, 16));
}

function classifyV6(address: string): AddressClass {
  const g = groupsOf(address.split("%")[0]);
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    return classifyV4(`${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`);
  }
  if (g.every((x) => x === 0)) return "unspecified";
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return "loopback";
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254) return "metadata";
  if ((g[0] & 0xffc0) === 0xfe80) return "link-local";
  if ((g[0] & 0xfe00) === 0xfc00) return "unique-local";
  if ((g[0] & 0xff00) === 0xff00) return "multicast";
  return "public";
}

/** The class of a literal IP address, or null when `host` is a name. */
export function classifyAddress(host: string): AddressClass | null {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const family = isIP(bare.split("%")[0]);
  if (family === 4) return classifyV4(bare);
  if (family === 6) return classifyV6(bare);
  return null;
}

/** Names that are cloud metadata endpoints whatever they resolve to. */
export const METADATA_NAMES = new Set(["metadata.google.internal", "metadata.google.internal."]);

/** The loopback ranges request-filtering-agent is told to let through when loopback is allowed. */
export const LOOPBACK_RANGES = ["127.0.0.0/8", "::1/128", "::ffff:127.0.0.0/104"];
