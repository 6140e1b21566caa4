/**
 * The OpenAPI document passes Redocly's linter (its `recommended` rules, the rules of `redocly
 * lint`): no error, and no warning about examples or operation ids. Operation ids are pinned: code
 * generators name functions after them, so one changing must be a deliberate edit of the fixture.
 */
import { readFileSync } from "node:fs";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { expect, it } from "vitest";
import { buildOpenApiDocument } from "./build-openapi-document.ts";

const PINNED_IDS = JSON.parse(readFileSync(new URL("./operation-ids.json", import.meta.url), "utf8")) as Record<string, string>;
/** Warnings that must not appear: examples that contradict their schema, operation ids missing or bad. */
const FORBIDDEN_WARNINGS = /example|operationId/i;

it("lints clean with Redocly's recommended rules", async () => {
  const config = await createConfig({ extends: ["recommended"] });
  const problems = await lintFromString({ source: JSON.stringify(buildOpenApiDocument()), absoluteRef: "openapi.json", config });
  const described = problems.map(
    (problem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer ?? ""}: ${problem.message}`,
  );
  expect(described.filter((line) => line.startsWith("error"))).toEqual([]);
  expect(described.filter((line) => FORBIDDEN_WARNINGS.test(line.split(":")[0]!))).toEqual([]);
}, 60_000);

it("gives every operation its pinned operationId", () => {
  const { paths = {} } = buildOpenApiDocument();
  const ids = Object.fromEntries(
    Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations as Record<string, { operationId?: string }>).map(([method, operation]) => [
        `${method.toUpperCase()} ${path}`,
        operation.operationId,
      ]),
    ),
  );
  expect(ids).toEqual(PINNED_IDS);
});
