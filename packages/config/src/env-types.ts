/** zod building blocks for environment variables (all arrive as strings). */
import { z } from "zod";

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);

export const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const url = () => z.url();

/** A comma-separated list of URLs, e.g. several upstream nodes for failover. */
export const urlList = () =>
  z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url()).min(1));

/** "true"/"false"/"1"/"0", which z.coerce.boolean() would read as always true. */
export const flag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0"])
    .default(fallback ? "true" : "false")
    .transform((value) => value === "true" || value === "1");

export const logLevel = () => z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info");

/** body-parser's size syntax (`5mb`, `512kb`, `1048576`): a typo stops the process at start-up. */
const BYTE_SIZE = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i;
const BYTES_PER_UNIT: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** A positive byte size, parsed to a number of bytes. */
export const byteSize = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, context) => {
      const match = BYTE_SIZE.exec(value.trim());
      const bytes = match ? Math.floor(Number(match[1]) * BYTES_PER_UNIT[(match[2] ?? "b").toLowerCase()]!) : Number.NaN;
      if (!(bytes >= 1) || !Number.isSafeInteger(bytes)) {
        context.addIssue({
          code: "custom",
          message: `must be a positive size such as 5mb, 512kb or 1048576 (got ${JSON.stringify(value)})`,
        });
        return z.NEVER;
      }
      return bytes;
    });
