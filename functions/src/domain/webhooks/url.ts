/**
 * The URLs a webhook may deliver to, judged at subscription (docs/api.md#webhooks) by the one
 * address policy (addresses.ts) that also judges every connection (outbound/): the URL's form,
 * its host name, a literal address, and (verifyWebhookUrl) every address the name resolves to
 * now. Delivery judges the addresses again at each connection, so a name that later resolves
 * elsewhere (DNS rebinding) is refused then.
 */
import { errors } from "../errors.js";
import { describeJudgement, judgeAddress, parseIp, refusedName, type AddressPolicy } from "./addresses.js";
import type { WebhookSettings } from "./settings.js";

/**
 * Every address a host name resolves to, by the resolution deliveries use (handed in by the
 * entry layer: outbound/lookup.ts). Rejects, or answers none, when the name does not resolve.
 */
export type ResolveHost = (hostname: string) => Promise<string[]>;

const refuse = errors.refusedWebhookUrl;

const PUBLIC_HINT = "use a public host name or address";

/**
 * The URL as it will be stored (WHATWG-normalised), or 400 invalid_request on `url`: its form,
 * its host name and a literal address. Makes no network call (verifyWebhookUrl resolves names).
 */
export function checkWebhookUrl(raw: string, settings: Pick<WebhookSettings, "allowLoopback">): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse("must be an absolute https: URL, e.g. https://example.com/hooks/almanac");
  }
  const schemes = settings.allowLoopback ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol))
    throw refuse(`must use ${settings.allowLoopback ? "https: or http:" : "https:"}`);
  if (url.username || url.password) throw refuse("must not carry a user name or password; put a token in the path");
  const host = url.hostname;
  if (parseIp(host) === null) {
    const refused = refusedName(host, settings);
    if (refused) throw refuse(`must not ${refused}`);
    return url.href;
  }
  const judgement = judgeAddress(host, settings);
  if (!judgement.allowed) throw refuse(`must not be ${describeJudgement(judgement)}; ${PUBLIC_HINT}`);
  return url.href;
}

/**
 * checkWebhookUrl, then the host name resolved and each of its addresses judged: a name that
 * resolves to any refused address is refused, saying what kind (not which address: that would
 * let a caller read the service's private DNS). A name that does not resolve now is taken: it
 * is judged when a delivery connects.
 */
export async function verifyWebhookUrl(
  raw: string,
  settings: Pick<WebhookSettings, "allowLoopback">,
  resolve: ResolveHost,
): Promise<string> {
  const href = checkWebhookUrl(raw, settings);
  const addresses = await addressesOf(new URL(href).hostname, resolve);
  // A name that does not resolve now is judged when a delivery connects.
  const refused = addresses && refusedAmong(addresses, settings);
  if (refused) throw refuse(`must not name a host that resolves to ${refused}; ${PUBLIC_HINT}`);
  return href;
}

/** The addresses a host name resolves to now ([] when it does not), or null for a literal address. */
export async function addressesOf(host: string, resolve: ResolveHost): Promise<string[] | null> {
  if (parseIp(host) !== null) return null;
  try {
    return await resolve(host);
  } catch {
    return [];
  }
}

/** What kind of address the policy refuses first among these, or null when it takes them all. */
export function refusedAmong(addresses: readonly string[], policy: AddressPolicy): string | null {
  for (const address of addresses) {
    const judgement = judgeAddress(address, policy);
    if (!judgement.allowed) return describeJudgement(judgement);
  }
  return null;
}
