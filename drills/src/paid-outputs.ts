/**
 * Where a regtest payment put its money: the output index (`position` in a notification) of each
 * address it paid, read from the node (a wallet send also adds a change output, at a random index).
 */
import type { LitecoindRegtest } from "@chaingate/testing";

interface DecodedTransaction {
  vout: { n: number; scriptPubKey: { address?: string; addresses?: string[] } }[];
}

/** Output index by paid address (Bitcoin Core 0.21 and so litecoind name it in `addresses[0]`, 22+ in `address`). */
export async function paidOutputs(node: LitecoindRegtest, txid: string): Promise<Map<string, number>> {
  const { hex } = await node.walletRpc<{ hex: string }>("gettransaction", [txid]);
  const decoded = await node.rpc<DecodedTransaction>("decoderawtransaction", [hex]);
  const outputs = new Map<string, number>();
  for (const output of decoded.vout) {
    const address = output.scriptPubKey.address ?? output.scriptPubKey.addresses?.[0];
    if (address !== undefined) outputs.set(address, output.n);
  }
  return outputs;
}
