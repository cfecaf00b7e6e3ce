/**
 * Name resolution under the webhook address policy (domain/webhooks/addresses.ts). The sender
 * hands `guardedLookup` to every connection it opens, so the address judged is the address
 * connected to, after DNS, at that moment (a name rebinding to a private address is refused);
 * the subscription check resolves names with `resolverFor` over the same underlying lookup.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import type { LookupFunction } from "node:net";
import { describeJudgement, judgeAddress, refusedName, type AddressPolicy } from "../domain/webhooks/addresses.js";
import type { ResolveHost } from "../domain/webhooks/url.js";

/** The code of the error a refused connection fails with (its message starts with `refused`). */
export const REFUSED_CODE = "ERR_WEBHOOK_ADDRESS_REFUSED";

export class AddressRefusedError extends Error {
  readonly code = REFUSED_CODE;
}

/** The system's resolver (getaddrinfo, as http.request uses by default). */
export const systemLookup: LookupFunction = dnsLookup;

/** Every address `lookup` gives for `hostname` (both families). */
function lookupAll(lookup: LookupFunction, hostname: string, options: LookupOptions): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(hostname, { ...options, all: true }, (err, addresses, foundFamily) => {
      if (err) return reject(err);
      // A lookup that ignores `all` answers one address.
      resolve(typeof addresses === "string" ? [{ address: addresses, family: foundFamily ?? 0 }] : addresses);
    });
  });
}

/**
 * `lookup` that refuses a name the policy refuses, and a name of which any address is refused
 * (not only the one Node would connect to first: with `autoSelectFamily` it may try them all).
 */
export function guardedLookup(policy: AddressPolicy, lookup: LookupFunction = systemLookup): LookupFunction {
  return (hostname, options, callback) => {
    const refused = refusedName(hostname, policy);
    if (refused) {
      process.nextTick(() => callback(new AddressRefusedError(`refused: a webhook host must not ${refused}`), ""));
      return;
    }
    lookupAll(lookup, hostname, options).then(
      (addresses) => {
        for (const { address } of addresses) {
          const judgement = judgeAddress(address, policy);
          if (!judgement.allowed)
            return callback(
              new AddressRefusedError(`refused: ${hostname} resolves to ${describeJudgement(judgement)}`),
              "",
            );
        }
        if (addresses.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          err.code = "ENOTFOUND";
          return callback(err, "");
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ""),
    );
  };
}

/** How long the subscription check waits for a name to resolve before taking it unjudged. */
export const RESOLVE_TIMEOUT_MS = 2_000;

/**
 * The subscription check's resolution (domain/webhooks/url.ts `verifyWebhookUrl`): the same
 * lookup deliveries use, every address, given up after `timeoutMs`.
 */
export function resolverFor(lookup: LookupFunction = systemLookup, timeoutMs = RESOLVE_TIMEOUT_MS): ResolveHost {
  return (hostname) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from DNS within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([lookupAll(lookup, hostname, {}), timeout])
      .then((addresses) => addresses.map((a) => a.address))
      .finally(() => clearTimeout(timer));
  };
}
