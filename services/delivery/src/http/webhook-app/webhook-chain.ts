/**
 * The chain of a webhook, from the deployment's chain registry (built-in coins and EVM_CHAINS): a
 * coin the registry does not have is refused in the spec's 422 shape, on create (the client named
 * it) and on changes to a webhook whose chain an operator has since removed from EVM_CHAINS.
 */
import type { ChainEntry, ChainRegistry } from "@chaingate/chain-registry";
import { ValidationError } from "@chaingate/errors";

/** A webhook's chain (its body's coin was checked: check-webhook-body.ts); a 422 naming `coin` when it is no longer configured. */
export function storedWebhookChain(chains: ChainRegistry, coin: string): ChainEntry {
  const chain = chains.chain(coin);
  if (!chain) throw new ValidationError({ coin: [`The ${coin} chain is not configured on this deployment (EVM_CHAINS).`] });
  return chain;
}
