import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // test/.artifacts holds what tests write (screenshots) and scratch files: never tests.
    exclude: ["**/node_modules/**", "test/.artifacts/**"],
    environment: "node",
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The Firestore emulator: started by the first test file that needs it, stopped at the end.
    globalSetup: ["test/helpers/firestore-global-setup.ts"],
    // Rate limits off, as for the benchmarks: suites send thousands of requests from one
    // address. test/api/rate-limits.test.ts turns them on with small limits of its own.
    env: { RATE_LIMITS: "off" },
  },
});
