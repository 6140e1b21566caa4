/** zod building blocks for environment variables (all arrive as strings). */
import { z } from "zod";

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);

export const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const url = () => z.url();

/** A comma-separated list of URLs, e.g. several upstream nodes for failover. */
export const urlList = () =>
  z
    .string()
    .transform((value) => value.split(",").map((item) => item.trim()).filter(Boolean))
    .pipe(z.array(z.url()).min(1));

/** "true"/"false"/"1"/"0", which z.coerce.boolean() would read as always true. */
export const flag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0"])
    .default(fallback ? "true" : "false")
    .transform((value) => value === "true" || value === "1");

export const logLevel = () => z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info");
