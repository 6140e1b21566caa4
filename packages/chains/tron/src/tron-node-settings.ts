/**
 * How a service reaches a Tron node beyond its URLs: the API key of a hosted provider and the header
 * it travels in. One zod fragment, so the trx-proxy and the scanner read the same variables the same way.
 */
import { z } from "zod";

/** TronGrid's header; other providers name theirs differently (TRON_NODE_API_KEY_HEADER). */
export const DEFAULT_TRON_NODE_API_KEY_HEADER = "TRON-PRO-API-KEY";

/** Spread into a service's config schema. */
export const tronNodeAuthSettings = () => ({
  TRON_NODE_API_KEY: z
    .string()
    .min(1)
    .optional()
    .describe("A hosted provider's key (TronGrid), sent in TRON_NODE_API_KEY_HEADER; unset for an own java-tron node."),
  TRON_NODE_API_KEY_HEADER: z
    .string()
    .min(1)
    .default(DEFAULT_TRON_NODE_API_KEY_HEADER)
    .describe("The header TRON_NODE_API_KEY is sent in."),
});

/** The node client's credentials (a `NodeAuth` of @chaingate/node-client). */
export type TronNodeAuth = { apiKeyHeader: string; apiKey: string } | "none";

export function tronNodeAuth(config: { TRON_NODE_API_KEY?: string | undefined; TRON_NODE_API_KEY_HEADER: string }): TronNodeAuth {
  return config.TRON_NODE_API_KEY ? { apiKeyHeader: config.TRON_NODE_API_KEY_HEADER, apiKey: config.TRON_NODE_API_KEY } : "none";
}
