import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore } from "../../functions/src/storage/sqlite/index.js";
import { runStoreContract } from "./contract.js";

runStoreContract("sqlite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "almanac-store-"));
  const store = new SqliteStore(join(dir, "store.db"));
  return {
    store,
    supportsContention: true,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
