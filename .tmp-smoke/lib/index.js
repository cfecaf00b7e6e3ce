import { onRequest } from "firebase-functions/v2/https";
const OPTIONS = { region: process.env.FUNCTION_REGION ?? "us-central1", memory: "512MiB", concurrency: 80 };
let deps;
function productionDeps() {
    deps ??= (async () => {
        const { openFirestoreStore } = await import("./storage/index.js");
        const project = process.env.GCLOUD_PROJECT ?? process.env.GOOGLE_CLOUD_PROJECT ?? "demo-almanac";
        return {
            store: await openFirestoreStore(),
            clock: () => new Date(),
            baseUrl: (process.env.PUBLIC_BASE_URL ?? `https://${project}.web.app`).replace(/\/+$/, ""),
            log: (line) => console.log(line),
        };
    })();
    return deps;
}
function lazyApp(build) {
    let app;
    return onRequest(OPTIONS, async (req, res) => {
        app ??= build();
        (await app)(req, res);
    });
}
export const api = lazyApp(async () => {
    const { createApiApp } = await import("./app.js");
    return createApiApp(await productionDeps());
});
//# sourceMappingURL=index.js.map