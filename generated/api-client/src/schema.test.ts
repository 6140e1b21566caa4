/** The checked-in schema.ts is what the generator writes from today's document: regenerate after changing the document. */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { generateSchemaSource } from "./generate-schema.ts";

it("schema.ts is up to date with the OpenAPI document (pnpm --filter @chaingate/api-client generate)", async () => {
  expect(await generateSchemaSource()).toBe(readFileSync(new URL("./schema.ts", import.meta.url), "utf8"));
}, 60_000);
