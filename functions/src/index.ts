/**
 * The deployed Cloud Functions, and nothing else: `api` (/v1 and /openapi.json) and `pages`
 * (/c/... and /v/..., feeds included), as firebase.json's Hosting rewrites route them. The
 * apps and the Firestore client load on the first request, so that importing this module
 * (the cold start) stays cheap.
 */
import type { Express } from "express";
import { onRequest } from "firebase-functions/v2/https";

const OPTIONS = { region: process.env.FUNCTION_REGION ?? "us-central1", memory: "512MiB" as const, concurrency: 80 };

let deps: Promise<import("./domain/deps.js").Deps> | undefined;

function productionDeps() {
  deps ??= (async () => {
    const { openFirestoreStore } = await import("./storage/index.js");
    const { ResponseCache } = await import("./http/response-cache.js");
    const project = process.env.GCLOUD_PROJECT ?? process.env.GOOGLE_CLOUD_PROJECT ?? "demo-almanac";
    return {
      store: await openFirestoreStore(),
      clock: () => new Date(),
      baseUrl: (process.env.PUBLIC_BASE_URL ?? `https://${project}.web.app`).replace(/\/+$/, ""),
      log: (line: string) => console.log(line),
      cache: new ResponseCache(),
    };
  })();
  return deps;
}

function lazyApp(build: () => Promise<Express>) {
  let app: Promise<Express> | undefined;
  return onRequest(OPTIONS, async (req, res) => {
    app ??= build();
    (await app)(req, res);
  });
}

export const api = lazyApp(async () => {
  const { createApiApp } = await import("./app.js");
  return createApiApp(await productionDeps());
});

export const pages = lazyApp(async () => {
  const { createPagesApp } = await import("./pages/app.js");
  return createPagesApp(await productionDeps());
});
