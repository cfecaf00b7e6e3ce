/** Name resolution for tests: each name resolves to the addresses listed, any other does not resolve. */
import type { LookupFunction } from "node:net";

export function lookupFrom(names: Record<string, string[]>): LookupFunction {
  return (hostname, options, callback) => {
    const addresses = (names[hostname] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    if (addresses.length === 0) {
      const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      err.code = "ENOTFOUND";
      return callback(err, "");
    }
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
}
