import { defineConfig } from "vitest/config";
import path from "node:path";

// Tests are split by where they run: `tests/unit` needs nothing but Node;
// `tests/integration` needs a real PostgreSQL (DATABASE_URL, else a throwaway
// embedded one started by the global setup).
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // Vitest's default is one worker fewer than the cores: one file at a time on CI's 2-core machine,
    // where an integration file mostly waits on PostgreSQL and its own worker threads. Two files at once
    // keep both cores busy (bench/README.md, "CI time"); each file has its own database.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        // Two files share the 2 cores (maxWorkers): the property tests that take 2-4 s alone get room past
        // Vitest's 5 s default, which is a guard against a hang, not a performance check.
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", testTimeout: 15_000 },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/integration/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
