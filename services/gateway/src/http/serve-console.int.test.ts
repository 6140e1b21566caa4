/**
 * `/console` from a console directory: the page and its hashed assets with their content types,
 * cache rules and security headers; without a build the gateway still starts and says why.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect } from "vitest";
import { gatewayTest } from "../testing/gateway-fixtures.ts";
import { startTestGateway, type TestGateway } from "../testing/index.ts";
import { CONSOLE_CONTENT_SECURITY_POLICY } from "./serve-console.ts";

const it = gatewayTest.extend<{ consoleDir: string; consoleGateway: TestGateway; unbuiltGateway: TestGateway }>({
  /** A console build of three files in a temp directory, removed after the file. */
  consoleDir: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads what a fixture needs from this pattern
    async ({}, use) => {
      const built = mkdtempSync(path.join(tmpdir(), "console-built-"));
      mkdirSync(path.join(built, "assets"));
      writeFileSync(path.join(built, "index.html"), '<!doctype html><script type="module" src="/console/assets/index-abc123.js"></script>');
      writeFileSync(path.join(built, "assets", "index-abc123.js"), "console.log(1)");
      writeFileSync(path.join(built, "assets", "index-abc123.css"), "body{}");
      try {
        await use(built);
      } finally {
        rmSync(built, { recursive: true, force: true });
      }
    },
    { scope: "file" },
  ],
  /** A gateway serving that build. */
  consoleGateway: [
    async ({ database, consoleDir }, use) => {
      const gateway = await startTestGateway({ CONSOLE_DIR: consoleDir }, database.connectionString);
      try {
        await use(gateway);
      } finally {
        await gateway.close();
      }
    },
    { scope: "file" },
  ],
  /** A gateway whose console directory was never built. */
  unbuiltGateway: [
    async ({ database }, use) => {
      const missing = path.join(tmpdir(), "console-never-built");
      const gateway = await startTestGateway({ CONSOLE_DIR: missing }, database.connectionString);
      try {
        await use(gateway);
      } finally {
        await gateway.close();
      }
    },
    { scope: "file" },
  ],
});

describe("a built console", () => {
  it.for(["/console", "/console/"])(
    "%s is the page, revalidated each time, under the CSP",
    async (pathname, { consoleGateway: gateway }) => {
      const answer = await fetch(`${gateway.url}${pathname}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(answer.headers.get("cache-control")).toBe("no-cache");
      expect(answer.headers.get("content-security-policy")).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
      expect(answer.headers.get("x-frame-options")).toBe("DENY");
      expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
      expect(await answer.text()).toContain("/console/assets/index-abc123.js");
    },
  );

  it("serves hashed assets with their content types, cached for good", async ({ consoleGateway: gateway }) => {
    for (const [file, type] of [
      ["index-abc123.js", "text/javascript; charset=utf-8"],
      ["index-abc123.css", "text/css; charset=utf-8"],
    ]) {
      const answer = await fetch(`${gateway.url}/console/assets/${file}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe(type);
      expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("answers an unknown asset with the JSON 404 of every unknown path", async ({ consoleGateway: gateway }) => {
    const answer = await fetch(`${gateway.url}/console/assets/nope.js`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ message: "The route console/assets/nope.js could not be found." });
  });
});

it("without a build, the gateway serves the API and answers /console 503 saying how to build it", async ({ unbuiltGateway: unbuilt }) => {
  const answer = await fetch(`${unbuilt.url}/console`);
  expect(answer.status).toBe(503);
  expect(answer.headers.get("cache-control")).toBe("no-store");
  const page = await answer.text();
  expect(page).toContain("The console is not built");
  expect(page).toContain("pnpm --filter @chaingate/console build");
  expect((await fetch(`${unbuilt.url}/api/v1/keys`)).status).toBe(401);
});
