/**
 * The per-coin rules of a webhook's notification settings, checked once the coin is known (the
 * request schema has already checked the types): `confirmations` at most the chain's maximum,
 * `include_tokens` only where the chain lets a webhook choose (see TOKEN_REPORTING), and `pending`
 * only where the chain has a mempool to watch (see PENDING_EVENTS), `all_tokens` only on EVM chains.
 */
import type { ChainEntry } from "@chaingate/chain-registry";

export interface WebhookSettingsInput {
  confirmations?: number | undefined;
  include_tokens?: boolean | undefined;
  pending?: boolean | undefined;
  all_tokens?: boolean | undefined;
}

const TOKEN_REFUSALS: Record<"never" | "always", (coin: string) => string> = {
  never: (coin) => `The include tokens field must be false for ${coin} webhooks: the chain has no tokens.`,
  always: (coin) => `The include tokens field must be true for ${coin} webhooks: TRC-10 and TRC-20 transfers are always reported.`,
};

/** Adds the reasons the settings cannot be stored for a webhook of `chain` to `errors`. */
export function checkWebhookSettings(chain: ChainEntry, settings: WebhookSettingsInput, errors: Record<string, string[]>): void {
  const { coin } = chain;
  const max = chain.confirmations.max;
  if (settings.confirmations !== undefined && settings.confirmations > max) {
    errors.confirmations = [`The confirmations field must not be greater than ${max} for ${coin} webhooks.`];
  }
  const rule = chain.tokenReporting;
  if (settings.include_tokens !== undefined && rule !== "optional" && settings.include_tokens !== (rule === "always")) {
    errors.include_tokens = [TOKEN_REFUSALS[rule](coin)];
  }
  // false is always accepted: a client may PUT back what it read.
  if (settings.pending === true && !chain.pendingEvents) {
    errors.pending = [`The pending field must be false for ${coin} webhooks: Tron nodes have no public mempool.`];
  }
  if (settings.all_tokens === true && chain.kind !== "evm") {
    errors.all_tokens = [`The all tokens field must be false for ${coin} webhooks: only EVM chains have ERC-20 transfers.`];
  }
}
