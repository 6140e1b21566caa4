/** Writes src/schema.ts from the OpenAPI document (`pnpm --filter @chaingate/api-client generate`). */
import { writeFileSync } from "node:fs";
import { generateSchemaSource } from "./generate-schema.ts";

const target = new URL("./schema.ts", import.meta.url);
writeFileSync(target, await generateSchemaSource());
process.stderr.write(`wrote ${target.pathname}\n`);
