/** Each area of the API registers its own paths; adding an area means adding it here. */
import type { OpenAPIRegistry } from "./openapi-registry.ts";

export const AREAS: ReadonlyArray<(registry: OpenAPIRegistry) => void> = [];
