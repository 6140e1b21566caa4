/** Writes docs/operations/configuration.md from the services' zod schemas (`pnpm docs:config`). */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CONFIGURATION_DOC, renderConfigurationDoc } from "./config-docs/render-configuration.ts";

const target = fileURLToPath(new URL(`../${CONFIGURATION_DOC}`, import.meta.url));
writeFileSync(target, renderConfigurationDoc());
console.log(`wrote ${CONFIGURATION_DOC}`);
