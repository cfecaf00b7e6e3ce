/**
 * The URLs a feed layer may read (docs/api.md#layers), judged at attach by the webhook address
 * policy (domain/webhooks/addresses.ts): https only (a webcal: address is read over https), even
 * where loopback is allowed; no user name or password; no name or literal address the policy
 * refuses; and every address the name resolves to now. The fetcher (outbound/fetch-feed.ts) judges the addresses again at each
 * connection, so a name that later resolves elsewhere is refused then.
 */
import { errors } from "../errors.js";
import { describeJudgement, judgeAddress, parseIp, refusedName, type AddressPolicy } from "../webhooks/addresses.js";
import { addressesOf, refusedAmong, type ResolveHost } from "../webhooks/url.js";

const refuse = (message: string) => errors.invalidField("invalid_request", "feed_url", message);

const PUBLIC_HINT = "a feed must be on a public host";

/** The URL as it will be stored, or 400 on `feed_url`: its form, its host name and a literal address. */
export function checkFeedUrl(raw: string, policy: AddressPolicy): string {
  if (!URL.canParse(raw)) throw refuse("must be an absolute https: URL, e.g. https://example.com/team.ics");
  // webcal: only asks a calendar app to subscribe; the feed itself is read over https.
  const url = new URL(raw.replace(/^webcal:/i, "https:"));
  if (url.protocol !== "https:")
    throw refuse("must use https: (or webcal:, read over https); http: feeds are not read");
  if (url.username || url.password) throw refuse("must not carry a user name or password");
  const host = url.hostname;
  if (parseIp(host) === null) {
    const refused = refusedName(host, policy);
    if (refused) throw refuse(`must not ${refused}; ${PUBLIC_HINT}`);
    return url.href;
  }
  const judgement = judgeAddress(host, policy);
  if (!judgement.allowed) throw refuse(`must not be ${describeJudgement(judgement)}; ${PUBLIC_HINT}`);
  return url.href;
}

/**
 * checkFeedUrl, then the name resolved and each address judged, saying what kind of address
 * was refused (never which: that would read the service's private DNS to the caller). A name
 * that does not resolve is refused too: a feed is fetched within a pass of its attaching.
 */
export async function verifyFeedUrl(raw: string, policy: AddressPolicy, resolve: ResolveHost): Promise<string> {
  const href = checkFeedUrl(raw, policy);
  const addresses = await addressesOf(new URL(href).hostname, resolve);
  if (addresses === null) return href;
  if (addresses.length === 0) throw refuse("names a host that does not resolve; check the address");
  const refused = refusedAmong(addresses, policy);
  if (refused) throw refuse(`must not name a host that resolves to ${refused}`);
  return href;
}
