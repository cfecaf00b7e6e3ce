/**
 * The URLs a webhook may deliver to, judged at subscription (docs/api.md#webhooks). Literal
 * addresses are judged here; a name is judged again after DNS, at every connection
 * (domain/webhooks/send.ts), so a name that later resolves to a private address is refused then.
 */
import { errors } from "../errors.js";
import { classifyAddress, METADATA_NAMES } from "./addresses.js";
import type { WebhookSettings } from "./settings.js";

const refuse = (message: string) => errors.invalidField("invalid_request", "url", message);

/** The URL as it will be stored (WHATWG-normalised), or 400 invalid_request on `url`. */
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
  const host = url.hostname.toLowerCase();
  if (METADATA_NAMES.has(host)) throw refuse("must not name a cloud metadata endpoint");
  const loopbackName = host === "localhost" || host.endsWith(".localhost");
  if (loopbackName && !settings.allowLoopback) throw refuse("must not name a loopback host");
  const kind = classifyAddress(host);
  if (kind === null || kind === "public") return url.href;
  if (kind === "loopback" && settings.allowLoopback) return url.href;
  throw refuse(`must not be a ${kind.replace("-", " ")} address; use a public host name or address`);
}
