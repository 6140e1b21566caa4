export { z } from "./zod.ts";
export * from "./events/index.ts";
