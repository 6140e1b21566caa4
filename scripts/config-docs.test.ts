/**
 * The docs say only what the code does: the configuration page is what the schemas render, and
 * every setting-like name the README and docs/ put in backticks is a setting of some service schema
 * or a name this file knows to be something else (and finds where it says).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { documentationFiles, proseLines } from "./config-docs/documentation-files.ts";
import { CONFIGURATION_DOC, renderConfigurationDoc, schemaSettingNames } from "./config-docs/render-configuration.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * Names the docs mention that are no service setting, each with the file that defines or reads it
 * (checked: the file holds the name). Environment read outside the schemas, code constants, stream
 * and status names.
 */
const NOT_SETTINGS: Record<string, string> = {
  // Environment read outside the service schemas
  OTEL_EXPORTER_OTLP_ENDPOINT: "packages/telemetry/src/start-telemetry.ts",
  OTEL_SERVICE_NAME: "packages/telemetry/src/preload-telemetry.ts",
  GATEWAY_PORT: "scripts/dev.ts",
  TRON_DEVNODE_PORT: "scripts/dev.ts",
  ANVIL_PORT: "scripts/dev.ts",
  DEV_PORT_OFFSET: "scripts/dev.ts",
  DEV_DATA_DIR: "scripts/dev.ts",
  POSTGRES_PASSWORD: "docker-compose.yml",
  CHROMIUM_PATH: "drills/src/e2e/console-stack.ts",
  HOSTILE_NODE_SEED: "drills/src/hostile-node.int.test.ts",
  FAULT_DRILL_SEED: "drills/src/notification-faults.int.test.ts",
  GAP_DRILL_SEED: "drills/src/gap-proof-subscription.int.test.ts",
  BENCH_DELIVERY_SERVICE_DIR: "bench/delivery/notification-throughput.ts",
  BENCH_RSS_ADDRESSES: "bench/memory/rss-bounds.ts",
  // Code constants
  WEBHOOK_WATCHED_SQL: "services/scanner/src/testing/webhook-watched-sql.ts",
  TEST_INTERNAL_TOKEN: "testkit/testing/src/internal-edge.ts",
  DEFAULT_ACK_WAIT_MS: "packages/bus/src/run-consumer.ts",
  TRANSFER_MATCHED_ACK_WAIT_MS: "services/delivery/src/consumers/store-matched-transfers.ts",
  MAX_CONFIRMATIONS: "packages/contracts/src/webhook-settings.ts",
  MAX_ADDRESSES_PER_BUCKET: "packages/contracts/src/events/webhook-buckets.ts",
  WEBHOOK_LIST_ADDRESS_CAP: "packages/contracts/src/api/webhooks/webhook-limits.ts",
  BUCKETS_PER_READ: "services/delivery/src/workers/webhook-changed-relay.ts",
  WEBHOOK_MAX_PAGE: "packages/contracts/src/api/webhooks/webhook-limits.ts",
  REQUEST_BODY_LIMITS: "packages/contracts/src/api/request-body-limits.ts",
  // Streams, results and statuses
  WEBHOOK_FEED: "packages/contracts/src/events/webhook-changed.ts",
  OUT_OF_ENERGY: "peers/tron-devnode/src/transaction.ts",
};

/** A backticked name that looks like a setting: upper case with an underscore, alone or as `NAME=value`. */
const SETTING_LIKE = /^([A-Z][A-Z0-9_]{3,})(=.*)?$/;

/** Setting-like names in inline code, outside fenced blocks, with where they are. */
function mentionedNames(file: string): Array<{ name: string; where: string }> {
  return proseLines(readFileSync(join(ROOT, file), "utf8")).flatMap(({ line, number }) =>
    [...line.matchAll(/`([^`]+)`/g)].flatMap(([, span]) => {
      const name = SETTING_LIKE.exec(span!.trim())?.[1];
      return name?.includes("_") ? [{ name, where: `${file}:${number}` }] : [];
    }),
  );
}

describe("docs/operations/configuration.md", () => {
  it("is what the services' schemas render", () => {
    const checkedIn = readFileSync(join(ROOT, CONFIGURATION_DOC), "utf8");
    if (checkedIn !== renderConfigurationDoc()) expect.fail(`${CONFIGURATION_DOC} is stale: run pnpm docs:config`);
  });
});

describe("settings named in the README and docs/", () => {
  const settings = schemaSettingNames();
  const mentions = documentationFiles(ROOT).flatMap(mentionedNames);

  it("are settings of some service schema, or names known to be something else", () => {
    const unknown = mentions.filter(({ name }) => !settings.has(name) && !(name in NOT_SETTINGS));
    expect(
      unknown.map(
        ({ name, where }) =>
          `${where}: \`${name}\` is no setting of any services/*/src/config.ts schema (fix the doc; if it is no setting, add it to NOT_SETTINGS in ${relative(ROOT, fileURLToPath(import.meta.url))})`,
      ),
    ).toEqual([]);
  });

  it("knows each other name from the file that defines it, and only names the docs still mention", () => {
    const problems = Object.entries(NOT_SETTINGS).flatMap(([name, file]) => {
      if (settings.has(name)) return [`${name} is a setting now: remove it from NOT_SETTINGS`];
      if (!existsSync(join(ROOT, file)) || !readFileSync(join(ROOT, file), "utf8").includes(name)) return [`${name} is not in ${file}`];
      if (!mentions.some((mention) => mention.name === name)) return [`${name} is mentioned in no doc: remove it from NOT_SETTINGS`];
      return [];
    });
    expect(problems).toEqual([]);
  });
});
