/**
 * The TypeScript types of the OpenAPI document (`paths`, `components`, `operations`), as
 * openapi-typescript writes them: the source of `schema.ts`, which is checked in and regenerated
 * with `pnpm --filter @chaingate/api-client generate` (a test fails while they differ).
 */
import { buildOpenApiDocument } from "@chaingate/contracts";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";

const HEADER = `${COMMENT_HEADER.trimEnd()}\n// Generated from @chaingate/contracts' buildOpenApiDocument(): pnpm --filter @chaingate/api-client generate\n\n`;

export async function generateSchemaSource(): Promise<string> {
  const document = buildOpenApiDocument();
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], { silent: true });
  return HEADER + astToString(ast);
}
