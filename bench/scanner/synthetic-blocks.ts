/**
 * Mainnet-shaped blocks for the scanner benchmarks, built in memory (no node): a Bitcoin block of
 * 5,000 outputs and a Tron block of 2,000 transactions, a third of them USDT transfers with their
 * Transfer logs. A few outputs/transfers pay watched addresses, as on a real chain.
 */
import { createHash, randomBytes } from "node:crypto";
// By path: bench/package.json (not this file's owner) does not list @chaingate/scanner.
import type { BitcoinBlock, TronBlockData, TronTokens } from "@chaingate/scanner";
import { ERC20_TRANSFER_TOPIC } from "@chaingate/ethereum";

export const USDT_BODY = "a614f803b6fd780986a42c78ec9c7f77e6ded13c";
export const TRON_TOKENS: TronTokens = new Map([
  [USDT_BODY, { contract: USDT_BODY, displayContract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", symbol: "USDT", decimals: 6 }],
]);

const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

/** A bech32-shaped P2WPKH address (`bc1q` + 38 characters, random-looking as real ones); numbered `i`, not checksummed (the matcher never decodes). */
export function bitcoinAddress(i: number): string {
  const digest = createHash("sha256").update(`btc${i}`).digest();
  let text = "bc1q";
  for (let c = 0; c < 38; c++) text += BECH32[digest[c % 32]! % 32];
  return text;
}

/** A Tron address body (40 hex digits, random-looking) numbered `i`. */
export function tronBody(i: number): string {
  return createHash("sha256").update(`trx${i}`).digest("hex").slice(0, 40);
}

const randomHex = (bytes: number) => randomBytes(bytes).toString("hex");

/** 5,000 outputs in 2,000 transactions; outputs with index % `watchedEvery` === 0 pay watched addresses 0, 1, 2… */
export function bitcoinBlock(outputs: number, watchedEvery: number): BitcoinBlock {
  const tx: BitcoinBlock["tx"] = [];
  let n = 0;
  while (n < outputs) {
    const count = Math.min(outputs - n, tx.length === 0 ? 1 : 2 + (tx.length % 3));
    tx.push({
      txid: randomHex(32),
      vout: Array.from({ length: count }, (_, i) => {
        const global = n + i;
        const address = global % watchedEvery === 0 ? bitcoinAddress(global / watchedEvery) : `bc1q${randomHex(19)}`;
        return { value: `${global % 7}.${String((global * 1234567) % 100_000_000).padStart(8, "0")}`, n: i, scriptPubKey: { address } };
      }),
    });
    n += count;
  }
  return { hash: randomHex(32), height: 800_000, previousblockhash: randomHex(32), time: 1_700_000_000, tx };
}

/** `transactions` transactions, a third USDT (trigger + Transfer log), the rest TRX; every `watchedEvery`-th pays a watched body. */
export function tronBlock(transactions: number, watchedEvery: number, height = 60_000_000, parentHash = randomHex(32)): TronBlockData {
  const txs: NonNullable<TronBlockData["block"]["transactions"]> = [];
  const infos: TronBlockData["infos"][number][] = [];
  for (let i = 0; i < transactions; i++) {
    const txID = randomHex(32);
    const owner = `41${randomHex(20)}`;
    const to = i % watchedEvery === 0 ? tronBody(i / watchedEvery) : randomHex(20);
    if (i % 3 === 0) {
      const word = (hex: string) => hex.padStart(64, "0");
      txs.push({
        txID,
        ret: [{ contractRet: "SUCCESS" }],
        raw_data: {
          contract: [
            {
              type: "TriggerSmartContract",
              parameter: {
                value: { owner_address: owner, contract_address: `41${USDT_BODY}`, data: `a9059cbb${word(to)}${word("f4240")}` },
              },
            },
          ],
        },
      });
      infos.push({
        id: txID,
        log: [
          { address: USDT_BODY, topics: [ERC20_TRANSFER_TOPIC, word(owner.slice(2)), word(to)], data: word((1_000_000 + i).toString(16)) },
        ],
      });
    } else {
      txs.push({
        txID,
        ret: [{ contractRet: "SUCCESS" }],
        raw_data: {
          contract: [
            { type: "TransferContract", parameter: { value: { owner_address: owner, to_address: `41${to}`, amount: 1_000_000 + i } } },
          ],
        },
      });
      infos.push({ id: txID });
    }
  }
  return {
    block: {
      blockID: `${height.toString(16).padStart(16, "0")}${randomHex(24)}`,
      block_header: { raw_data: { number: height, parentHash, timestamp: 1_700_000_000_000 + height * 3000 } },
      transactions: txs,
    },
    infos,
  };
}
