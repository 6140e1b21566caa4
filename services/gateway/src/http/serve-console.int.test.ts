/**
 * `/console` from a console directory: the page and its hashed assets with their content types,
 * cache rules and security headers; without a build the gateway still starts and says why.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway } from "../testing/index.ts";
import { CONSOLE_CONTENT_SECURITY_POLICY } from "./serve-console.ts";

let built: string;
let missing: string;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let unbuilt: Awaited<ReturnType<typeof startTestGateway>>;

beforeAll(async () => {
  built = mkdtempSync(path.join(tmpdir(), "console-built-"));
  mkdirSync(path.join(built, "assets"));
  writeFileSync(path.join(built, "index.html"), '<!doctype html><script type="module" src="/console/assets/index-abc123.js"></script>');
  writeFileSync(path.join(built, "assets", "index-abc123.js"), "console.log(1)");
  writeFileSync(path.join(built, "assets", "index-abc123.css"), "body{}");
  missing = path.join(tmpdir(), "console-never-built");
  gateway = await startTestGateway({ CONSOLE_DIR: built });
  unbuilt = await startTestGateway({ CONSOLE_DIR: missing }, gateway.databaseUrl);
});
afterAll(async () => {
  await unbuilt?.close();
  await gateway?.close();
  await gateway?.dropDatabase();
  rmSync(built, { recursive: true, force: true });
});

describe("a built console", () => {
  it.each(["/console", "/console/"])("%s is the page, revalidated each time, under the CSP", async (pathname) => {
    const answer = await fetch(`${gateway.url}${pathname}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(answer.headers.get("cache-control")).toBe("no-cache");
    expect(answer.headers.get("content-security-policy")).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    expect(answer.headers.get("x-frame-options")).toBe("DENY");
    expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
    expect(await answer.text()).toContain("/console/assets/index-abc123.js");
  });

  it("serves hashed assets with their content types, cached for good", async () => {
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

  it("answers an unknown asset with the JSON 404 of every unknown path", async () => {
    const answer = await fetch(`${gateway.url}/console/assets/nope.js`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ message: "The route console/assets/nope.js could not be found." });
  });
});

it("without a build, the gateway serves the API and answers /console 503 saying how to build it", async () => {
  const answer = await fetch(`${unbuilt.url}/console`);
  expect(answer.status).toBe(503);
  expect(answer.headers.get("cache-control")).toBe("no-store");
  const page = await answer.text();
  expect(page).toContain("The console is not built");
  expect(page).toContain("pnpm --filter @chaingate/console build");
  expect((await fetch(`${unbuilt.url}/api/v1/keys`)).status).toBe(401);
});
