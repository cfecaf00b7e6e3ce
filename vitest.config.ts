import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // test/.artifacts holds what tests write (screenshots) and scratch files: never tests.
    exclude: ["**/node_modules/**", "test/.artifacts/**"],
    environment: "node",
    // On the Firestore emulator (ALMANAC_TEST_STORE=firestore) contended transactions wait their
    // turn (a lock is held up to 2 s): the race tests take a minute there, seeding big calendars too.
    testTimeout: process.env.ALMANAC_TEST_STORE === "firestore" ? 180_000 : 20_000,
    hookTimeout: process.env.ALMANAC_TEST_STORE === "firestore" ? 180_000 : 60_000,
    pool: "forks",
    // The Firestore emulator: started by the first test file that needs it, stopped at the end.
    globalSetup: ["test/helpers/firestore-global-setup.ts"],
    // Rate limits off, as for the benchmarks: suites send thousands of requests from one
    // address. test/api/rate-limits.test.ts turns them on with small limits of its own.
    env: { RATE_LIMITS: "off" },
  },
});
