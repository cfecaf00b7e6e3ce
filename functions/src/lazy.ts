/**
 * Load on first use. A module that some requests never need (the pages for an API
 * call, ical-generator for a page, the MCP SDK for REST) is imported by the first request that
 * needs it, not at process start: `npm start` answers sooner and idles smaller. The pattern is
 * one line where the module is used:
 *
 *   const pagesApp = loadOnce(async () => (await import("./pages/app.js")).createPagesApp(deps));
 *   ... (await pagesApp())(req, res);
 *
 * and only `import type` of it at the top of the file. docs/ARCHITECTURE.md (Performance) lists
 * what loads when.
 */

/** `load()` run on the first call and shared after; a failure is dropped, so the next call tries again. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    }));
}
