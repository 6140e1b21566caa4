/**
 * Mainnet-shaped blocks for the scanner benchmarks, built in memory (no node): a Bitcoin block of
 * 5,000 outputs, a Tron block of 2,000 transactions, a third of them USDT transfers with their
 * Transfer logs, and an Ethereum block of ether transfers with internal value frames (traced).
 * A few outputs/transfers pay watched addresses, as on a real chain.
 */
import { createHash, randomBytes } from "node:crypto";
import type { BitcoinBlock, EthereumBlock, TronBlockData, TronTokens } from "@chaingate/scanner";
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

/** An Ethereum address (0x + 40 lower-case hex digits, random-looking) numbered `i`. */
export function ethereumAddress(i: number): string {
  return `0x${createHash("sha256").update(`eth${i}`).digest("hex").slice(0, 40)}`;
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

type InternalValueFrame = NonNullable<EthereumBlock["transactions"][number]["internalTransfers"]>[number];

/**
 * `transactions` successful ether transfers to random contracts, each of which passes ether on in
 * `framesPerTransaction` internal CALL frames (as a trace shows them); of all transfers
 * (transactions and frames, numbered in order) every `watchedEvery`-th pays watched address 0, 1, 2…
 */
export function ethereumBlock(transactions: number, framesPerTransaction: number, watchedEvery: number): EthereumBlock {
  let transfer = 0;
  const payee = () => {
    const n = transfer++;
    return n % watchedEvery === 0 ? ethereumAddress(n / watchedEvery) : `0x${randomHex(20)}`;
  };
  const wei = (n: number) => `0x${(10n ** 15n * BigInt(1 + (n % 1000))).toString(16)}`;
  return {
    number: "0x1312d00",
    hash: `0x${randomHex(32)}`,
    parentHash: `0x${randomHex(32)}`,
    timestamp: "0x65000000",
    transactions: Array.from({ length: transactions }, (_, t) => {
      const to = payee();
      const internalTransfers = Array.from(
        { length: framesPerTransaction },
        (_, f): InternalValueFrame => ({ type: "CALL", from: to, to: payee(), value: wei(t + f), index: f + 1, traceAddress: String(f) }),
      );
      return {
        hash: `0x${randomHex(32)}`,
        from: `0x${randomHex(20)}`,
        to,
        value: wei(t),
        input: "0x",
        status: "0x1",
        logs: [],
        internalTransfers,
      };
    }),
  };
}
