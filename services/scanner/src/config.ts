/** The scanner's settings, from the environment. */
import { databaseSettings, env, natsSettings, serviceSettings } from "@chaingate/config";
import { z } from "zod";
import { DEFAULT_FETCH_CONCURRENCY, DEFAULT_NODE_BEHIND_FAILOVER_MS, DEFAULT_POLL_INTERVAL_MS, DEFAULT_WATCH_GRACE_MS } from "./domain/follow-chain.ts";

/**
 * Tron has no push on its HTTP API, so it is polled more often than the chains that announce
 * blocks: the tip query is one small call (`/wallet/getblock`, header only).
 */
export const DEFAULT_TRX_POLL_INTERVAL_MS = 300;
import { DEFAULT_LEASE_POLL_MS } from "./infra/advisory-lease.ts";
import { DEFAULT_RESET_POLL_MS } from "./domain/chain-guard.ts";
import type { Coin } from "@chaingate/contracts";
import { CHAIN_SETTINGS, MAX_REORG_WINDOW } from "./domain/chain-settings.ts";

/** Token whitelist entries, `SYMBOL:contract:decimals`, comma-separated. */
const tokenList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, context) => {
      const tokens: Array<{ symbol: string; contract: string; decimals: number }> = [];
      for (const entry of value.split(",").map((part) => part.trim()).filter(Boolean)) {
        const [symbol, contract, decimals] = entry.split(":");
        if (!symbol || !contract || !/^\d{1,2}$/.test(decimals ?? "")) {
          context.addIssue({ code: "custom", message: `entries are SYMBOL:contract:decimals (got ${JSON.stringify(entry)})` });
          return z.NEVER;
        }
        tokens.push({ symbol, contract, decimals: Number(decimals) });
      }
      return tokens;
    });

/** A comma-separated URL list whose every URL has one of `schemes` (e.g. `ws:`). */
const urlListOf = (...schemes: string[]) =>
  env.urlList().refine((urls) => urls.every((url) => schemes.includes(new URL(url).protocol)), `every URL must start with ${schemes.map((scheme) => `${scheme}//`).join(" or ")}`);

/** A chain's kept window: default its documented depth, never below its maximum confirmations. */
const reorgWindow = (coin: Coin) =>
  z.coerce
    .number()
    .int()
    .min(CHAIN_SETTINGS[coin].maxConfirmations, `must be at least ${CHAIN_SETTINGS[coin].maxConfirmations} (the most confirmations a ${coin} webhook may ask for)`)
    .max(MAX_REORG_WINDOW)
    .default(CHAIN_SETTINGS[coin].reorgWindow);

/** Mainnet USDT and USDC (shared/research/tron-node-api.md §11; Etherscan). */
const DEFAULT_ETH_TOKENS = "USDT:0xdac17f958d2ee523a2206206994597c13d831ec7:6,USDC:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48:6";
const DEFAULT_TRX_TOKENS = "USDT:TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t:6,USDC:TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8:6";

export const scannerConfigSchema = z.object({
  // Listening: probes and metrics only.
  ...serviceSettings(8105),
  ...databaseSettings(),
  ...natsSettings(),

  // Nodes (comma-separated URLs in order of preference). A chain without a URL is not followed.
  BTC_RPC_URL: env.urlList().optional(),
  BTC_RPC_USER: z.string().optional(),
  BTC_RPC_PASSWORD: z.string().optional(),
  BTC_RPC_COOKIE_FILE: z.string().optional(),
  ETH_RPC_URL: env.urlList().optional(),
  TRON_NODE_URL: env.urlList().optional(),
  TRON_NODE_API_KEY: z.string().optional(),
  NODE_TIMEOUT_MS: env.positiveInt(30_000),

  // Block announcements (push): each wakes the chain's follower at once; polling stays the fallback.
  /** The node's `-zmqpubhashblock` endpoint(s), e.g. tcp://bitcoind:28332 (bitcoind built with ZMQ). */
  BTC_ZMQ_URL: urlListOf("tcp:", "ipc:").optional(),
  /** WebSocket JSON-RPC endpoint(s) for eth_subscribe("newHeads"), e.g. ws://geth:8546. */
  ETH_WS_URL: urlListOf("ws:", "wss:").optional(),

  // Following
  /** Blocks fetched at once while catching up; processed in order. */
  SCANNER_FETCH_CONCURRENCY: env.positiveInt(DEFAULT_FETCH_CONCURRENCY),
  /** How often the BTC and ETH tip is polled when the follower is caught up (and no announcement woke it). */
  SCANNER_POLL_INTERVAL_MS: env.positiveInt(DEFAULT_POLL_INTERVAL_MS),
  /** The same for Tron, which announces nothing: shorter by default. */
  TRX_POLL_INTERVAL_MS: env.positiveInt(DEFAULT_TRX_POLL_INTERVAL_MS),
  /**
   * A node behind the newest processed block (a lagging URL, a load-balanced backend) is waited
   * for, never taken for a reorg; after this long it is failed over to the chain's next URL.
   */
  SCANNER_NODE_BEHIND_FAILOVER_MS: env.positiveInt(DEFAULT_NODE_BEHIND_FAILOVER_MS),
  /**
   * A block is matched only once the projection holds a registry watermark (`webhook.watermark`)
   * at most this much older than the block's time; otherwise the follower waits for the feed
   * (metric scanner_watch_feed_behind_seconds, /readyz degraded). Addresses that reach the scanner
   * later anyway are rescanned against the kept blocks.
   */
  SCANNER_WATCH_GRACE_MS: env.positiveInt(DEFAULT_WATCH_GRACE_MS),
  /** How often a standby replica tries the lease, and the holder checks its lease connection. */
  SCANNER_LEASE_POLL_MS: env.positiveInt(DEFAULT_LEASE_POLL_MS),
  /** How often a chain's follower looks for an operator's reset (`scanner-admin reset`), stopped or running. */
  SCANNER_RESET_POLL_MS: env.positiveInt(DEFAULT_RESET_POLL_MS),
  /**
   * Dev only: a chain whose node serves another chain or has none of the kept blocks (a dev chain
   * started fresh) is reset to the node's tip instead of stopping. Never in production: a wrong
   * node would silently skip blocks.
   */
  SCANNER_RESET_STALE_CHAINS: env.flag(false),
  /** Where a chain without a cursor starts (tests, a deliberate backfill); default the node's tip. */
  BTC_START_HEIGHT: z.coerce.number().int().nonnegative().optional(),
  ETH_START_HEIGHT: z.coerce.number().int().nonnegative().optional(),
  TRX_START_HEIGHT: z.coerce.number().int().nonnegative().optional(),
  /**
   * Blocks kept behind the cursor per chain (hashes and matches): the deepest reorg the scanner can
   * undo. At least the chain's maximum confirmations, so a waiting transfer is published (or
   * reverted) before its block leaves the window.
   */
  BTC_REORG_WINDOW: reorgWindow("BTC"),
  ETH_REORG_WINDOW: reorgWindow("ETH"),
  TRX_REORG_WINDOW: reorgWindow("TRX"),

  // Tokens
  /** ERC-20 whitelist (reported only to webhooks with include_tokens). */
  ETH_TOKENS: tokenList(DEFAULT_ETH_TOKENS),
  /** TRC-20 whitelist; currency = the symbol given here. */
  TRX_TOKENS: tokenList(DEFAULT_TRX_TOKENS),
});

export type ScannerConfig = z.infer<typeof scannerConfigSchema>;
