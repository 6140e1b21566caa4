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

/**
 * A JSON array setting (the token whitelists): each entry checked by `entry`, and the fields named
 * in `uniqueBy` unique across entries. A bad value stops the process naming the entry and field.
 * `notation` is how the message describes one entry, e.g. "{contract, symbol, name, decimals}".
 */
export function parseJsonArraySetting<Entry extends z.ZodType>(
  value: string,
  entry: Entry,
  notation: string,
  uniqueBy: ReadonlyArray<(parsed: z.output<Entry>) => unknown>,
): { ok: true; entries: Array<z.output<Entry>> } | { ok: false; message: string } {
  const expected = `must be a JSON array of ${notation}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return { ok: false, message: expected };
  }
  const result = z.array(entry).safeParse(parsed);
  if (!result.success) {
    const [issue] = result.error.issues;
    return { ok: false, message: `${expected}: ${issue?.path.join(".")} ${issue?.message}` };
  }
  const entries = result.data;
  if (!allUniqueBy(entries, uniqueBy)) return { ok: false, message: "symbols and contracts must be unique" };
  return { ok: true, entries };
}

/** True when no two entries share a value of any of `keys` (a list setting's symbols, contracts). */
export function allUniqueBy<Entry>(entries: readonly Entry[], keys: ReadonlyArray<(entry: Entry) => unknown>): boolean {
  return keys.every((key) => new Set(entries.map(key)).size === entries.length);
}
