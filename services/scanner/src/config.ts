/** The scanner's settings, from the environment. */
import { databaseSettings, env, natsSettings, serviceSettings } from "@chaingate/config";
import { bitcoinNodeAuthSettings } from "@chaingate/bitcoin";
import { erc20WhitelistSettings } from "@chaingate/ethereum";
import { trc20WhitelistSettings, tronNodeAuthSettings } from "@chaingate/tron";
import { z } from "zod";
import {
  DEFAULT_FETCH_CONCURRENCY,
  DEFAULT_NODE_BEHIND_FAILOVER_MS,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_WATCH_GRACE_MS,
} from "./domain/follow-chain/follow-chain-options.ts";

/**
 * Tron has no push on its HTTP API, so it is polled more often than the chains that announce
 * blocks: the tip query is one small call (`/wallet/getblock`, header only).
 */
export const DEFAULT_TRX_POLL_INTERVAL_MS = 300;
import { DEFAULT_LEASE_EXPIRY_MS, DEFAULT_LEASE_POLL_MS, leaseProbeTimeoutMs } from "./infra/advisory-lease.ts";
import { ETHEREUM_TRACE_MODES } from "./infra/ethereum-block-source/ethereum-trace-mode.ts";
import { DEFAULT_RESET_POLL_MS } from "./domain/chain-guard.ts";
import { DEFAULT_MEMPOOL_DROP_AFTER_MS, DEFAULT_MEMPOOL_POLL_MS } from "./domain/mempool/watch-mempool-options.ts";
import type { Coin } from "@chaingate/contracts";
import { evmChainsSetting, type BuiltInCoin } from "@chaingate/chain-registry";
import { CHAIN_SETTINGS, MAX_REORG_WINDOW } from "./domain/chain-settings.ts";

/** A comma-separated URL list whose every URL has one of `schemes` (e.g. `ws:`). */
const urlListOf = (...schemes: string[]) =>
  env
    .urlList()
    .refine(
      (urls) => urls.every((url) => schemes.includes(new URL(url).protocol)),
      `every URL must start with ${schemes.map((scheme) => `${scheme}//`).join(" or ")}`,
    );

/**
 * Blocks kept behind the cursor (hashes and matches): the deepest reorg the scanner can undo.
 * Default its documented depth; at least the chain's maximum confirmations, so a waiting transfer
 * is published (or reverted) before its block leaves the window.
 */
const reorgWindow = (coin: BuiltInCoin) =>
  z.coerce
    .number()
    .int()
    .min(
      CHAIN_SETTINGS[coin].maxConfirmations,
      `must be at least ${CHAIN_SETTINGS[coin].maxConfirmations} (the most confirmations a ${coin} webhook may ask for)`,
    )
    .max(MAX_REORG_WINDOW)
    .default(CHAIN_SETTINGS[coin].reorgWindow)
    .describe(
      `${coin} blocks kept behind the cursor: the deepest reorg the scanner can undo; at least ${coin}'s maximum confirmations (${CHAIN_SETTINGS[coin].maxConfirmations}).`,
    );

/** Where a chain without a cursor starts (tests, a deliberate backfill). */
const startHeight = (coin: Coin) =>
  z.coerce
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe(`Where ${coin} starts when it has no cursor (tests, a deliberate backfill); unset: the node's tip.`);

export const scannerConfigSchema = z
  .object({
    // Listening: probes and metrics only.
    ...serviceSettings(8105),
    ...databaseSettings(),
    ...natsSettings(),

    // Nodes (comma-separated URLs in order of preference). A chain without a URL is not followed.
    BTC_RPC_URL: env.urlList().optional().describe("Bitcoin node URL(s), comma-separated (failover); unset: BTC is not followed."),
    ...bitcoinNodeAuthSettings(),
    ETH_RPC_URL: env.urlList().optional().describe("Ethereum node URL(s), comma-separated (failover); unset: ETH is not followed."),
    // Other EVM chains: each with node URLs is followed as Ethereum is (ETH_TRACE_MODE, push by its ws_url).
    EVM_CHAINS: evmChainsSetting(),
    TRON_NODE_URL: env.urlList().optional().describe("java-tron HTTP API URL(s), comma-separated (failover); unset: TRX is not followed."),
    ...tronNodeAuthSettings(),
    NODE_TIMEOUT_MS: env.positiveInt(30_000).describe("Per node call."),
    ETH_TRACE_MODE: z
      .enum(ETHEREUM_TRACE_MODES)
      .default("debug")
      .describe(
        "How internal transfers (ether a contract moves inside a transaction) are read: `debug` (debug_traceBlockByHash with callTracer: geth, erigon, reth, nethermind, anvil, most providers), `js` (debug_traceBlockByHash with chaingate's own JavaScript tracer, which answers only the frames that move value: about half the scanner's CPU per traced block, more of the node's; for self-hosted nodes that run custom tracers, which most providers refuse), `parity` (trace_block: erigon, nethermind, reth, openethereum-style nodes), or `off` (they are never seen: a deposit through a contract, a multisig or a batch payout is not notified). A node that refuses the method holds ETH back (log, scanner_call_traces_unavailable, /readyz degraded) until it traces or this is `off`.",
      ),

    // Block announcements (push): each wakes the chain's follower at once; polling stays the fallback.
    BTC_ZMQ_URL: urlListOf("tcp:", "ipc:")
      .optional()
      .describe(
        "bitcoind's `-zmqpubhashblock` endpoint(s) (`tcp://` or `ipc://`, comma-separated), e.g. tcp://bitcoind:28332: blocks wake the follower at once.",
      ),
    ETH_WS_URL: urlListOf("ws:", "wss:")
      .optional()
      .describe('WebSocket JSON-RPC URL(s) (`ws://` or `wss://`, comma-separated) for eth_subscribe("newHeads"), e.g. ws://geth:8546.'),

    // Following
    SCANNER_FETCH_CONCURRENCY: env
      .positiveInt(DEFAULT_FETCH_CONCURRENCY)
      .describe("Blocks fetched at once while catching up; processed in order."),
    SCANNER_POLL_INTERVAL_MS: env
      .positiveInt(DEFAULT_POLL_INTERVAL_MS)
      .describe("How often the BTC and ETH tip is polled when the follower is caught up (and no block announcement woke it)."),
    MEMPOOL_POLL_INTERVAL_MS: env
      .positiveInt(DEFAULT_MEMPOOL_POLL_MS)
      .describe(
        "How often the Bitcoin mempool (`getrawmempool`) and the Ethereum pool (`txpool_content`) are diffed for webhooks with `pending` on; a block announcement wakes it early, and with ZMQ `sequence` on `BTC_ZMQ_URL` each new Bitcoin transaction is read at once. Nothing is polled while no webhook of the chain has `pending` on.",
      ),
    MEMPOOL_DROP_AFTER_SECONDS: env
      .positiveInt(DEFAULT_MEMPOOL_DROP_AFTER_MS / 1000)
      .describe(
        "How long a pending transaction may be missing from the node's mempool, neither mined nor conflicted by a mined or replacing transaction, before it is reported `dropped`.",
      ),
    TRX_POLL_INTERVAL_MS: env
      .positiveInt(DEFAULT_TRX_POLL_INTERVAL_MS)
      .describe("The same for Tron, which announces nothing: shorter by default (1000 or more within TronGrid's daily allowance)."),
    SCANNER_NODE_BEHIND_FAILOVER_MS: env
      .positiveInt(DEFAULT_NODE_BEHIND_FAILOVER_MS)
      .describe(
        "A node behind the newest processed block (a lagging URL, a load-balanced backend) is waited for, never taken for a reorg; after this long it is failed over to the chain's next URL.",
      ),
    SCANNER_WATCH_GRACE_MS: env
      .positiveInt(DEFAULT_WATCH_GRACE_MS)
      .describe(
        "A block is matched only once the projection holds a registry watermark (`webhook.watermark`) at most this much older than the block's time; otherwise the follower waits for the feed (scanner_watch_feed_behind_seconds, /readyz degraded).",
      ),
    SCANNER_LEASE_POLL_MS: env
      .positiveInt(DEFAULT_LEASE_POLL_MS)
      .describe(
        "How often a standby replica tries the lease, and the holder renews it; the holder gives the lease up when a renewal fails or takes over three polls (at least 3 s).",
      ),
    SCANNER_LEASE_EXPIRY_MS: env
      .positiveInt(DEFAULT_LEASE_EXPIRY_MS)
      .describe(
        "A lease not renewed this long (its holder partitioned from the database or frozen) is taken over: a standby ends the holder's database session. Every replica reports a chain unfollowed earlier, once its lease goes unrenewed for the holder's give-up time plus two polls (/readyz degraded `chainsFollowed`, scanner_chain_followed 0). Must exceed the holder's give-up time (three polls, at least 3 s) plus a poll.",
      ),
    SCANNER_RESET_POLL_MS: env
      .positiveInt(DEFAULT_RESET_POLL_MS)
      .describe(
        "How often a chain's follower looks for an operator's reset (`scanner-admin reset`), stopped or running, and a stopped chain re-checks its node.",
      ),
    SCANNER_RESET_STALE_CHAINS: env
      .flag(false)
      .describe(
        "Dev only: a chain whose node serves another chain or has none of the kept blocks (a dev chain started fresh) is reset to the node's tip instead of stopping. Never in production: a wrong node would silently skip blocks.",
      ),
    BTC_START_HEIGHT: startHeight("BTC"),
    ETH_START_HEIGHT: startHeight("ETH"),
    TRX_START_HEIGHT: startHeight("TRX"),
    BTC_REORG_WINDOW: reorgWindow("BTC"),
    ETH_REORG_WINDOW: reorgWindow("ETH"),
    TRX_REORG_WINDOW: reorgWindow("TRX"),

    // Tokens: one whitelist per chain, shared with the chain's proxy (currency = the symbol given there).
    ...erc20WhitelistSettings(),
    ...trc20WhitelistSettings(),
    /** Refused rather than silently ignored: an upgraded scanner would otherwise notify other tokens than configured. */
    TRX_TOKENS: z
      .undefined({
        error:
          "was replaced by TRC20_WHITELIST (a JSON array of {contract, symbol, name, decimals}, the one Tron token list the trx-proxy reads too)",
      })
      .describe("Retired: replaced by TRC20_WHITELIST; the scanner refuses to start while it is set."),
  })
  .superRefine((config, context) => {
    // A holder must have given the lease up before a standby may end its session and take it.
    const giveUpMs = leaseProbeTimeoutMs(config.SCANNER_LEASE_POLL_MS) + config.SCANNER_LEASE_POLL_MS;
    if (config.SCANNER_LEASE_EXPIRY_MS <= giveUpMs) {
      context.addIssue({
        code: "custom",
        path: ["SCANNER_LEASE_EXPIRY_MS"],
        message: `must exceed ${giveUpMs} ms: the holder's give-up time (three SCANNER_LEASE_POLL_MS, at least 3 s) plus a poll`,
      });
    }
  });

export type ScannerConfig = z.infer<typeof scannerConfigSchema>;
