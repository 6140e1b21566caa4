import type { Coin } from "@chaingate/contracts";

/** How an operator gets a stopped chain going again. */
export function resetCommand(coin: Coin, from: "tip" | "<height>" = "tip"): string {
  return `pnpm --silent scanner-admin reset --chain ${coin} --from ${from}`;
}
