/** The btc-proxy's settings, from the environment. */
import { env } from "@chaingate/config";
import { z } from "zod";

/** body-parser's size syntax (`5mb`, `512kb`, `1048576`), checked here so a typo stops the process at start-up. */
const BYTE_SIZE = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i;
const BYTES_PER_UNIT: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** A positive byte size, as a number of bytes. */
const byteSize = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, context) => {
      const match = BYTE_SIZE.exec(value.trim());
      const bytes = match ? Math.floor(Number(match[1]) * BYTES_PER_UNIT[(match[2] ?? "b").toLowerCase()]!) : Number.NaN;
      if (!(bytes >= 1) || !Number.isSafeInteger(bytes)) {
        context.addIssue({ code: "custom", message: `must be a positive size such as 5mb, 512kb or 1048576 (got ${JSON.stringify(value)})` });
        return z.NEVER;
      }
      return bytes;
    });

export const btcProxyConfigSchema = z.object({
  // Listening (internal: only the gateway calls it)
  HOST: z.string().default("127.0.0.1"),
  PORT: env.port(8101),
  LOG_LEVEL: env.logLevel(),

  // The Bitcoin node(s): comma-separated URLs in order of preference, failover to the next
  // healthy one. Unset: every call answers the spec's 500 (node not configured).
  BTC_RPC_URL: env.urlList().optional(),
  BTC_RPC_USER: z.string().optional(),
  BTC_RPC_PASSWORD: z.string().optional(),
  /** bitcoind's .cookie file, instead of user/password. */
  BTC_RPC_COOKIE_FILE: z.string().optional(),
  BTC_RPC_TIMEOUT_MS: env.positiveInt(30_000),
  BTC_RPC_STREAM_IDLE_TIMEOUT_MS: env.positiveInt(60_000),

  /** Largest POST /jsonrpc body: `5mb`, `512kb` or a number of bytes (parsed to bytes). */
  JSONRPC_BODY_LIMIT: byteSize("5mb"),
  DRAIN_TIMEOUT_MS: env.positiveInt(10_000),
  /** Streamed bytes between two minor GCs (needs --expose-gc, set by the start script); 0 turns it off. */
  GC_NUDGE_BYTES: z.coerce.number().int().nonnegative().default(2 * 1024 * 1024),
});

export type BtcProxyConfig = z.infer<typeof btcProxyConfigSchema>;
