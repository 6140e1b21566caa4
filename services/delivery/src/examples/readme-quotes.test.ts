/** docs/api.md (Signatures) quotes the verification snippets verbatim, so what it shows is what the tests run. */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

const QUOTED = ["verify-standard-webhooks.ts", "verify-svix.ts", "verify-spec-signature.ts"];

it.each(QUOTED)("docs/api.md quotes %s verbatim", (file) => {
  const readme = readFileSync(new URL("../../../../docs/api.md", import.meta.url), "utf8");
  const snippet = readFileSync(new URL(file, import.meta.url), "utf8");
  expect(readme).toContain("```ts\n" + snippet + "```");
});
