/** The fields of the webhook request bodies, each with its rule and its Laravel-style messages. */
import { z } from "../../zod.ts";
import { COIN_PATTERN, COINS, coinSchema } from "../../events/event-contract.ts";
import { DEFAULT_CONFIRMATIONS, MAX_CONFIRMATIONS } from "../../webhook-settings.ts";
import { WEBHOOK_ADDRESS_MAX_CHARS, WEBHOOK_ADDRESSES_PER_REQUEST, WEBHOOK_MAX_XPUB_IDS } from "./webhook-limits.ts";

/** A coin as answers and notifications carry it: a built-in one or a configured EVM chain's. */
export const anyCoinField = coinSchema.openapi({
  description: "`BTC`, `ETH`, `TRX`, or a configured EVM chain's name in capitals (`POLYGON`; `GET /api/v1/chains` lists them).",
  example: "ETH",
});
/** The spec's message for a coin that is not one, or not one this deployment serves. */
export const COIN_INVALID_MESSAGE = "The selected coin is invalid.";
/** Checked against the deployment's chains by the registry (a coin it does not serve: the same 422). */
export const coinField = z
  .string({ error: COIN_INVALID_MESSAGE })
  .regex(COIN_PATTERN, { error: COIN_INVALID_MESSAGE })
  .openapi({
    description: `${COINS.map((coin) => `\`${coin}\``).join(", ")}, or a configured EVM chain's name in capitals (\`POLYGON\`; \`GET /api/v1/chains\` lists them): one subscription covers a whole chain. Any other value is a 422.`,
    example: "ETH",
  });
export const urlField = z
  .string({ error: "The webhook url field must be a string." })
  .max(2048, { error: "The webhook url field must not be greater than 2048 characters." })
  .openapi({
    description:
      "Public http(s) URL. Loopback, private, link-local, CGNAT, multicast, unspecified and IPv4-mapped IPv6 targets, cloud metadata and platform addresses (169.254.169.254, Azure's 168.63.129.16, fd00:ec2::254, …, in any IPv6 form), and host names resolving into any of them, are refused with 422.",
    example: "https://example.com/hooks/chaingate",
  });
export const addressesField = z
  .array(
    z
      .string({ error: "Each address must be a string." })
      .min(1, { error: "Each address must not be empty." })
      .max(WEBHOOK_ADDRESS_MAX_CHARS, { error: `Each address must not be greater than ${WEBHOOK_ADDRESS_MAX_CHARS} characters.` }),
    { error: "The addresses field must be an array." },
  )
  .min(1, { error: "The addresses field must have at least 1 items." })
  .max(WEBHOOK_ADDRESSES_PER_REQUEST, { error: `The addresses field must not have more than ${WEBHOOK_ADDRESSES_PER_REQUEST} items.` })
  .openapi({
    description: `Watched addresses, 1 to ${WEBHOOK_ADDRESSES_PER_REQUEST} per request, validated per coin; duplicates collapse; ETH is stored and matched lower case.`,
  });
export const isActiveField = z.boolean({ error: "The is active field must be true or false." }).openapi({
  description:
    "Whether notifications are pushed. Default true. While false the webhook's transfers are still matched and stored under their sequence (held, readable with `GET …/events`), and pushed or skipped when it is enabled again (`held_events`).",
});
export const HEARTBEAT_BLOCKS_MAX = 10_000;
export const heartbeatBlocksField = z
  .number({ error: "The heartbeat blocks field must be an integer or null." })
  .int({ error: "The heartbeat blocks field must be an integer or null." })
  .min(1, { error: "The heartbeat blocks field must be at least 1." })
  .max(HEARTBEAT_BLOCKS_MAX, { error: `The heartbeat blocks field must not be greater than ${HEARTBEAT_BLOCKS_MAX}.` })
  .nullable()
  .openapi({
    description: `Opt-in coverage heartbeats (a chaingate addition): every block whose height is a multiple of this, a numbered \`coverage\` event says that every event for blocks up to it was sent before it (lower sequence). 1 to ${HEARTBEAT_BLOCKS_MAX}, or null (the default): none.`,
    example: 10,
  });
export const HEARTBEAT_SECONDS_MIN = 10;
export const HEARTBEAT_SECONDS_MAX = 86_400;
export const heartbeatSecondsField = z
  .number({ error: "The heartbeat seconds field must be an integer or null." })
  .int({ error: "The heartbeat seconds field must be an integer or null." })
  .min(HEARTBEAT_SECONDS_MIN, { error: `The heartbeat seconds field must be at least ${HEARTBEAT_SECONDS_MIN}.` })
  .max(HEARTBEAT_SECONDS_MAX, { error: `The heartbeat seconds field must not be greater than ${HEARTBEAT_SECONDS_MAX}.` })
  .nullable()
  .openapi({
    description: `Opt-in coverage heartbeats by the clock (a chaingate addition): every this many seconds, a numbered \`coverage\` event for the newest block the scanner processed on the webhook's chain, also when no block came since the last one (so silence means something is wrong, not that the chain is quiet). ${HEARTBEAT_SECONDS_MIN} to ${HEARTBEAT_SECONDS_MAX}, or null (the default): none. Combines with \`heartbeat_blocks\`.`,
    example: 300,
  });
export const HELD_EVENTS_CHOICES = ["push", "skip"] as const;
export const heldEventsField = z.enum(HELD_EVENTS_CHOICES, { error: "The held events field must be push or skip." }).openapi({
  description:
    "With `is_active: true` on an inactive webhook: what becomes of the events stored while it was inactive. `push` (the default) sends them, oldest first; `skip` marks them skipped (they stay readable with `GET …/events`). Only allowed together with `is_active: true`.",
});
const confirmationsMaxima = Object.entries(MAX_CONFIRMATIONS)
  .map(([coin, max]) => `${coin} ${max}`)
  .join(", ");
export const confirmationsField = z
  .number({ error: "The confirmations field must be an integer." })
  .int({ error: "The confirmations field must be an integer." })
  .min(1, { error: "The confirmations field must be at least 1." })
  .openapi({
    description: `How deep a transfer's block must be before it is notified (1 = as soon as the scanner processes the block). Default ${DEFAULT_CONFIRMATIONS}; at most ${confirmationsMaxima} (more is a 422). A chaingate addition.`,
    example: 6,
  });
export const includeTokensField = z.boolean({ error: "The include tokens field must be true or false." }).openapi({
  description:
    "ETH: also notify ERC-20 Transfer logs of the whitelisted tokens (default false: native transfers only, as in v1). BTC: always false (no tokens). TRX: always true (TRC-10 and TRC-20 transfers are always reported). Sending true for BTC or false for TRX is a 422. A chaingate addition.",
});
export const allTokensField = z.boolean({ error: "The all tokens field must be true or false." }).openapi({
  description:
    "EVM chains (ETH and EVM_CHAINS): notify every ERC-20 Transfer log to or from a watched address, of any contract, listed or not (listed tokens as with `include_tokens`). An unlisted token's `currency` is its contract address (a symbol is never trusted: anyone can deploy a token named USDT), `decimals` is read once from the contract (0, amounts in raw units, when it has none). Spam tokens arrive too: credit only contracts you know. Must be false for BTC and TRX. Default false. A chaingate addition.",
});
export const pendingField = z.boolean({ error: "The pending field must be true or false." }).openapi({
  description:
    "Also notify transfers seen in the node's mempool before any block: a `pending` event, then exactly one outcome (`transfer` when mined, or `replaced`, `dropped`, `double_spent`). BTC and ETH; must be false for TRX (java-tron has no public mempool). Default false.",
});
export const xpubIdsField = z
  .array(
    z
      .number({ error: "Each xpub id must be an integer." })
      .int({ error: "Each xpub id must be an integer." })
      .positive({ error: "Each xpub id must be positive." }),
    {
      error: "The xpub ids field must be an array.",
    },
  )
  .max(WEBHOOK_MAX_XPUB_IDS, { error: `The xpub ids field must not have more than ${WEBHOOK_MAX_XPUB_IDS} items.` })
  .openapi({
    description:
      "Extended-key records of this account (ids from /api/v1/btc/xpub or /api/v1/eth/xpub, of the webhook's coin): the addresses issued from them are watched besides the webhook's own list — those issued before the key is named from then on (the answer lists those the registry has recorded; the rest of the key's history follows within moments), later ones from the moment they are issued. Removing a key stops watching its addresses, except those in the webhook's own list.",
  });
