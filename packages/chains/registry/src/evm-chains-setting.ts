/**
 * EVM_CHAINS: the EVM chains an operator adds beside Ethereum, one JSON array read by every
 * service (each takes what it needs: names and facts, and the scanner and eth-proxy the node URLs).
 * A well-known name (WELL_KNOWN_EVM_CHAINS) needs only its node URLs; any other chain names its
 * chain id and native symbol. Each becomes a registry entry: coin = the name in capitals
 * (`polygon` → `POLYGON`: native symbols repeat across chains, ETH on Arbitrum, Base and
 * Optimism), API prefix = the name (`/api/v1/polygon/…`).
 */
import { normalizeEthereumAddress, type Erc20Token } from "@chaingate/ethereum";
import { z } from "zod";
import { BUILT_IN_CHAINS, DEFAULT_CONFIRMATIONS } from "./built-in-chains.ts";
import type { ChainEntry } from "./chain-entry.ts";
import { WELL_KNOWN_EVM_CHAINS } from "./well-known-evm-chains.ts";

/** The largest reorg window a chain may keep (blocks; 30 minutes of Arbitrum, a day and a half of Bitcoin). */
export const MAX_REORG_WINDOW = 10_000;

/** How the scanner reads a chain's internal transfers (the scanner's ETH_TRACE_MODE values: see its config). */
export const EVM_TRACE_MODES = ["debug", "js", "parity", "off"] as const;
export type EvmTraceMode = (typeof EVM_TRACE_MODES)[number];

/** A configured EVM chain: its registry entry, and what the services that read its nodes need. */
export interface ConfiguredEvmChain {
  entry: ChainEntry;
  /** JSON-RPC URLs in order of preference (user info in a URL is its basic auth); empty when not given. */
  rpcUrls: string[];
  /** A WebSocket URL for new-head announcements (push), if any. */
  wsUrl: string | undefined;
  /** The ERC-20 tokens whose Transfer logs are notified to webhooks with include_tokens. */
  tokens: Erc20Token[];
  /** Its own call-trace method (its nodes may not offer Ethereum's); undefined: ETH_TRACE_MODE. */
  traceMode: EvmTraceMode | undefined;
}

/** Path segments under /api/v1 that are not chains, and the built-in chains' own. */
const RESERVED_NAMES = new Set(["webhooks", "chains", "xpub", "account", "accounts", "keys", "usage", "health", "admin", "console"]);
for (const { prefix } of Object.values(BUILT_IN_CHAINS)) RESERVED_NAMES.add(prefix);

const tokenSchema = z.object({
  contract: z.string().refine((value) => normalizeEthereumAddress(value) !== null, "must be an Ethereum address"),
  symbol: z.string().min(1).max(20),
  decimals: z.number().int().min(0).max(77),
});

const chainSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z][a-z0-9]{1,19}$/, "must be 2 to 20 lower-case letters and digits, starting with a letter")
    .refine((name) => !RESERVED_NAMES.has(name), "is taken (a built-in chain or an API path)"),
  chain_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  symbol: z
    .string()
    .regex(/^[A-Z][A-Z0-9]{0,9}$/, "must be 1 to 10 capital letters and digits")
    .optional(),
  decimals: z.number().int().min(0).max(36).default(18),
  block_seconds: z.number().positive().max(3_600).optional(),
  confirmations: z.strictObject({ default: z.number().int().min(1).optional(), max: z.number().int().min(1).optional() }).default({}),
  reorg_window: z.number().int().min(1).max(MAX_REORG_WINDOW).optional(),
  rpc_urls: z.array(z.url({ protocol: /^https?$/ })).default([]),
  ws_url: z.url({ protocol: /^wss?$/ }).optional(),
  tokens: z.array(tokenSchema).optional(),
  trace_mode: z.enum(EVM_TRACE_MODES).optional(),
});

type ChainSetting = z.output<typeof chainSchema>;

/** One entry of the setting as a configured chain, or why it cannot be one. */
function configuredChain(setting: ChainSetting): ConfiguredEvmChain | string {
  const known = WELL_KNOWN_EVM_CHAINS[setting.name];
  const chainId = setting.chain_id ?? known?.chainId;
  const symbol = setting.symbol ?? known?.symbol;
  if (chainId === undefined || symbol === undefined)
    return `${setting.name}: chain_id and symbol are required for a chain chaingate does not know`;
  if (known && chainId !== known.chainId) return `${setting.name}: is chain ${known.chainId}, not ${chainId} (give it another name)`;
  const max = setting.confirmations.max ?? known?.maxConfirmations ?? BUILT_IN_CHAINS.ETH.confirmations.max;
  const reorgWindow = setting.reorg_window ?? known?.reorgWindow ?? Math.max(BUILT_IN_CHAINS.ETH.reorgWindow, max);
  const preset = setting.confirmations.default ?? DEFAULT_CONFIRMATIONS;
  if (max > reorgWindow) return `${setting.name}: confirmations.max (${max}) must not exceed reorg_window (${reorgWindow})`;
  if (preset > max) return `${setting.name}: confirmations.default (${preset}) must not exceed confirmations.max (${max})`;
  const tokens = setting.tokens?.map((t) => ({ ...t, contract: normalizeEthereumAddress(t.contract)! })) ?? [...(known?.tokens ?? [])];
  if (!unique(tokens.map((t) => t.symbol)) || !unique(tokens.map((t) => t.contract)))
    return `${setting.name}: token symbols and contracts must be unique`;
  return {
    entry: {
      coin: setting.name.toUpperCase(),
      prefix: setting.name,
      name: setting.name,
      kind: "evm",
      native: { symbol, decimals: setting.decimals },
      caip2Namespace: "eip155",
      evmChainId: chainId,
      // The EVM chains' wallets derive on Ethereum's path (MetaMask, Ledger Live): one key, the same addresses.
      slip44: BUILT_IN_CHAINS.ETH.slip44,
      blockSeconds: setting.block_seconds ?? known?.blockSeconds ?? BUILT_IN_CHAINS.ETH.blockSeconds,
      confirmations: { default: preset, max },
      reorgWindow,
      tokenReporting: "optional",
      pendingEvents: true,
    },
    rpcUrls: setting.rpc_urls,
    wsUrl: setting.ws_url,
    tokens,
    traceMode: setting.trace_mode,
  };
}

const unique = (values: readonly unknown[]) => new Set(values).size === values.length;

/** The setting's chains, or the first reason it is refused. */
export function parseEvmChains(value: string): { ok: true; chains: ConfiguredEvmChain[] } | { ok: false; message: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return { ok: false, message: "must be a JSON array of chains ({name, rpc_urls, …})" };
  }
  const result = z.array(chainSchema).safeParse(parsed);
  if (!result.success) {
    const [issue] = result.error.issues;
    return { ok: false, message: `${issue?.path.join(".")} ${issue?.message}` };
  }
  const chains: ConfiguredEvmChain[] = [];
  for (const setting of result.data) {
    const chain = configuredChain(setting);
    if (typeof chain === "string") return { ok: false, message: chain };
    chains.push(chain);
  }
  if (!unique(chains.map((c) => c.entry.name))) return { ok: false, message: "chain names must be unique" };
  if (!unique(chains.map((c) => c.entry.evmChainId))) return { ok: false, message: "chain ids must be unique" };
  return { ok: true, chains };
}

/** The EVM_CHAINS setting for a service's config schema: `[]` (Ethereum alone) when unset. */
export const evmChainsSetting = () =>
  z
    .string()
    .default("[]")
    .transform((value, context) => {
      const result = parseEvmChains(value);
      if (result.ok) return result.chains;
      context.addIssue({ code: "custom", message: result.message });
      return z.NEVER;
    })
    .describe(
      'EVM chains beside Ethereum, as a JSON array: `[{"name": "polygon", "rpc_urls": ["https://…"]}]`. A well-known name (polygon, bsc, arbitrum, base, optimism, avalanche) needs only its node URLs; any other also `chain_id` and `symbol`. Optional: `ws_url`, `tokens` ([{contract, symbol, decimals}]), `confirmations` ({default, max}), `reorg_window`, `block_seconds`, `decimals`, `trace_mode` (debug, js, parity or off: ETH_TRACE_MODE for this chain alone). Each is served under `/api/v1/{name}` and named `coin` = the name in capitals. See docs/chains.md.',
    );
