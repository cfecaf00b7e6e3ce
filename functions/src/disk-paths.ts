/**
 * Files the code reads from disk, found from this module, which is one level under functions/
 * wherever it runs: src/ (the tests), lib/ (the type-checked build) or dist/ (the deployed and
 * the local bundles of scripts/bundle.mjs, where this code lands in one of the bundle's files).
 */
import { fileURLToPath } from "node:url";

/** A path under functions/: what a deployed function has of the repository. */
export const underFunctions = (relative: string): string => fileURLToPath(new URL(`../${relative}`, import.meta.url));

/** A path under the repository's root: for the local server, which runs from a checkout. */
export const underRepository = (relative: string): string =>
  fileURLToPath(new URL(`../../${relative}`, import.meta.url));
