/**
 * How a service authenticates to a Bitcoin node: rpcuser/rpcpassword, or bitcoind's cookie file
 * (preferred when both are set). One zod fragment, so the btc-proxy and the scanner read the same
 * variables the same way.
 */
import { z } from "zod";

/** Spread into a service's config schema. */
export const bitcoinNodeAuthSettings = () => ({
  BTC_RPC_USER: z.string().optional().describe("The Bitcoin node's rpcuser."),
  BTC_RPC_PASSWORD: z.string().optional().describe("The Bitcoin node's rpcpassword."),
  BTC_RPC_COOKIE_FILE: z
    .string()
    .optional()
    .describe("bitcoind's .cookie file, instead of user/password (re-read when the node answers 401)."),
});

/** The node client's credentials (a `NodeAuth` of @chaingate/node-client). */
export type BitcoinNodeAuth = { cookieFile: string } | { user: string; password: string } | "none";

export function bitcoinNodeAuth(config: {
  BTC_RPC_USER?: string | undefined;
  BTC_RPC_PASSWORD?: string | undefined;
  BTC_RPC_COOKIE_FILE?: string | undefined;
}): BitcoinNodeAuth {
  if (config.BTC_RPC_COOKIE_FILE) return { cookieFile: config.BTC_RPC_COOKIE_FILE };
  if (config.BTC_RPC_USER !== undefined) return { user: config.BTC_RPC_USER, password: config.BTC_RPC_PASSWORD ?? "" };
  return "none";
}
