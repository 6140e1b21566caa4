import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/chains/*/src/**/*.test.ts",
      "apps/*/src/**/*.test.ts",
      "peers/*/src/**/*.test.ts",
      "testkit/*/src/**/*.test.ts",
      "generated/*/src/**/*.test.ts",
      "services/*/src/**/*.test.ts",
      "services/*/test/**/*.test.ts",
      "drills/src/**/*.test.ts",
      "deploy/tests/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    // Integration tests share one Postgres and one NATS; each file isolates itself (own database,
    // own subject prefix), so files may run in parallel. Two cores: two workers.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    globalSetup: ["testkit/testing/src/global-setup.ts"],
    // Fails a test file whose test gateway served an answer the OpenAPI document does not describe.
    setupFiles: ["testkit/testing/src/openapi-answers/openapi-answers-setup.ts"],
    // A file-scoped fixture starts inside the first test that names it, so that test's time includes
    // the file's set-up (nodes, services): the same allowance as the hooks that used to do it.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
