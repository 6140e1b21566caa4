/**
 * The import boundaries in eslint.config.js, shown failing: each wrong-way import below is linted
 * with the repository's own config, as a file at that place in the tree, and must draw its rule's
 * error; the right-way imports beside them must lint clean.
 */
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The rule ids of the errors eslint reports for `code` as if it were the file at `file` (from the root). */
async function errorsFor(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${file}` });
  return result!.messages.filter((message) => message.severity === 2).map((message) => message.ruleId ?? `fatal: ${message.message}`);
}

const LAYERS = "import-x/no-restricted-paths";
const RELATIVE_PACKAGE = "import-x/no-relative-packages";

const WRONG_WAY = [
  {
    what: "domain/ imports infra/",
    file: "services/xpub/src/domain/wrong-way.ts",
    code: `export type { XpubDatabase } from "../infra/database-schema.ts";\n`,
    rule: LAYERS,
  },
  {
    what: "domain/ imports http/",
    file: "services/xpub/src/domain/wrong-way.ts",
    code: `export { createXpubApp } from "../http/create-xpub-app.ts";\n`,
    rule: LAYERS,
  },
  {
    what: "domain/ imports a database driver",
    file: "services/delivery/src/domain/wrong-way.ts",
    code: `export type { Kysely } from "kysely";\n`,
    rule: "no-restricted-imports",
  },
  {
    what: "infra/ imports http/",
    file: "services/gateway/src/infra/wrong-way.ts",
    code: `export { MISSING_KEY_MESSAGE } from "../http/authenticate-request.ts";\n`,
    rule: LAYERS,
  },
  {
    what: "a package imports a service, even by its package exports",
    file: "packages/http/src/wrong-way.ts",
    code: `export { createGateway } from "@chaingate/gateway";\n`,
    rule: LAYERS,
  },
  {
    what: "a service's running code imports another service",
    file: "services/delivery/src/infra/wrong-way.ts",
    code: `export { createXpubService } from "@chaingate/xpub";\n`,
    rule: LAYERS,
  },
  {
    what: "a service's test boots the gateway (a through-the-gateway test belongs in drills/src/e2e)",
    file: "services/xpub/src/wrong-way.int.test.ts",
    code: `export { startTestGateway } from "@chaingate/gateway/testing";\n`,
    rule: LAYERS,
  },
  {
    what: "a service's test reaches into another service's src by path",
    file: "services/scanner/src/wrong-way.int.test.ts",
    code: `export { createDeliveryService } from "../../delivery/src/create-delivery-service.ts";\n`,
    rule: RELATIVE_PACKAGE,
  },
  {
    what: "the bench reaches into a service's src by path",
    file: "bench/scanner/wrong-way.ts",
    code: `export { WatchIndex } from "../../services/scanner/src/domain/watch-index.ts";\n`,
    rule: RELATIVE_PACKAGE,
  },
  {
    what: "a drill reaches into a service's src by path",
    file: "drills/src/wrong-way.ts",
    code: `export { startLocalReceiver } from "../../services/delivery/src/testing/local-receiver.ts";\n`,
    rule: RELATIVE_PACKAGE,
  },
  {
    what: "two modules import each other (serve-http-app.ts imports start-http-server.ts)",
    file: "packages/service-kit/src/start-http-server.ts",
    code: `export { serveHttpApp } from "./serve-http-app.ts";\n`,
    rule: "import-x/no-cycle",
  },
  {
    what: "a service's running code loads the test kit",
    file: "services/scanner/src/infra/wrong-way.ts",
    code: `export { createTestDatabase } from "@chaingate/testing";\n`,
    rule: LAYERS,
  },
  {
    what: "a runtime package loads the Tron node simulator (a dev peer)",
    file: "packages/node-client/src/wrong-way.ts",
    code: `export { startTronDevnode } from "@chaingate/tron-devnode";\n`,
    rule: LAYERS,
  },
  {
    what: "a service's running code loads the generated API client",
    file: "services/delivery/src/infra/wrong-way.ts",
    // By path: no service depends on the client, so its name would not resolve.
    code: `export { createApiClient } from "../../../../generated/api-client/src/index.ts";\n`,
    rule: LAYERS,
  },
  {
    what: "the test kit imports a service",
    file: "testkit/testing/src/wrong-way.ts",
    code: `export { createXpubService } from "@chaingate/xpub";\n`,
    rule: LAYERS,
  },
];

const RIGHT_WAY = [
  {
    what: "infra/ imports a database driver",
    file: "services/delivery/src/infra/right-way.ts",
    code: `export type { Kysely } from "kysely";\n`,
  },
  {
    what: "infra/ imports domain/",
    file: "services/xpub/src/infra/right-way.ts",
    code: `export type { XpubChain } from "../domain/xpub-chain.ts";\n`,
  },
  {
    what: "http/ imports infra/",
    file: "services/gateway/src/http/right-way.ts",
    code: `export { sendJson } from "../infra/send-json.ts";\n`,
  },
  {
    what: "a service's test uses another service's package exports",
    file: "services/scanner/src/right-way.int.test.ts",
    code: `export { startTestDelivery } from "@chaingate/delivery/testing";\n`,
  },
  {
    what: "the bench uses a service's package exports",
    file: "bench/scanner/right-way.ts",
    code: `export { WatchIndex } from "@chaingate/scanner";\n`,
  },
  {
    what: "a drill boots the gateway",
    file: "drills/src/e2e/right-way.int.test.ts",
    code: `export { startTestGateway } from "@chaingate/gateway/testing";\n`,
  },
  {
    what: "a runtime package's test uses the test kit",
    file: "packages/node-client/src/right-way.int.test.ts",
    code: `export { createTestDatabase } from "@chaingate/testing";\n`,
  },
  {
    what: "the test kit starts the Tron node simulator",
    file: "testkit/testing/src/right-way.ts",
    code: `export { startTronDevnode } from "@chaingate/tron-devnode";\n`,
  },
  {
    what: "the console uses the generated API client",
    file: "apps/console/web/right-way.ts",
    code: `export { createApiClient } from "@chaingate/api-client";\n`,
  },
  {
    what: "a drill uses a service's package exports",
    file: "drills/src/right-way.ts",
    code: `export { startLocalReceiver } from "@chaingate/delivery/testing";\n`,
  },
];

describe("small units", () => {
  const lines = (count: number) => Array.from({ length: count }, (_, i) => `  total += ${i};`).join("\n");
  it("fails a function over 120 lines", async () => {
    const code = `export function long(): number {\n  let total = 0;\n${lines(120)}\n  return total;\n}\n`;
    expect(await errorsFor("services/scanner/src/domain/long.ts", code)).toContain("max-lines-per-function");
  });

  it("fails an error class that does not extend the project's base error", async () => {
    const code = `export class NodeGoneError extends Error {}\n`;
    expect(await errorsFor("services/scanner/src/infra/node-gone.ts", code)).toContain("no-restricted-syntax");
    expect(
      await errorsFor(
        "services/scanner/src/infra/node-gone.ts",
        `import { ChaingateError } from "@chaingate/errors";\nexport class NodeGoneError extends ChaingateError {}\n`,
      ),
    ).toEqual([]);
  });

  it("fails a file over 400 lines, tests included", async () => {
    const code = Array.from({ length: 401 }, (_, i) => `export const c${i} = ${i};`).join("\n") + "\n";
    expect(await errorsFor("services/delivery/src/http/long.int.test.ts", code)).toContain("max-lines");
  });
});

describe("import boundaries", () => {
  it.each(WRONG_WAY)("fails when $what", async ({ file, code, rule }) => {
    expect(await errorsFor(file, code)).toContain(rule);
  });

  it.each(RIGHT_WAY)("passes when $what", async ({ file, code }) => {
    expect(await errorsFor(file, code)).toEqual([]);
  });
});
