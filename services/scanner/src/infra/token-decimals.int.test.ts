/**
 * Unlisted tokens' decimals (issue #31, `all_tokens`) over a real Postgres: read once per chain and
 * contract, only for contracts that pay a watched key; a node that cannot answer (unreachable, a
 * provider's own refusal) leaves the contract unread so the block waits, never a guessed scale; an
 * EVM failure (out of gas, a revert) is "no decimals" for good; the first replica's answer is every
 * replica's.
 */
import { NodeRpcError, NodeUnreachableError, type NodeClient } from "@chaingate/node-client";
import { ERC20_TRANSFER_TOPIC } from "@chaingate/ethereum";
import { describe, expect } from "vitest";
import type { EthereumBlock } from "../domain/match-ethereum-block.ts";
import { WatchIndex } from "../domain/watch-index.ts";
import { scannerTest as it } from "../testing/scanner-fixtures.ts";
import { createTokenDecimals } from "./token-decimals.ts";

const WATCHED = "0x" + "a1".repeat(20);
const word = (hex: string) => hex.replace(/^0x/, "").padStart(64, "0");
const LABEL = { id: "eth", name: "Ethereum" };

/** A block paying WATCHED from each contract, and one paying an unwatched address. */
function blockPaying(contracts: string[], unwatchedFrom: string): EthereumBlock {
  const log = (contract: string, to: string) => ({
    address: contract,
    topics: [`0x${ERC20_TRANSFER_TOPIC}`, `0x${word("b2".repeat(20))}`, `0x${word(to)}`],
    data: `0x${word("64")}`,
  });
  return {
    number: "0x10",
    hash: "0xhash",
    parentHash: "0xparent",
    timestamp: "0x1",
    transactions: [
      {
        hash: "0xtx",
        from: "0x" + "b2".repeat(20),
        to: contracts[0]!,
        value: "0x0",
        input: "0x",
        status: "0x1",
        logs: [...contracts.map((contract) => log(contract, WATCHED)), log(unwatchedFrom, "0x" + "cc".repeat(20))],
      },
    ],
  };
}

/** A node whose eth_call answers come from `answer`, counting the calls per contract. */
function scriptedNode(answer: (contract: string) => string | Error) {
  const calls: string[] = [];
  const node = {
    async call(method: string, params: unknown[]) {
      if (method !== "eth_call") throw new Error(`unexpected ${method}`);
      const contract = (params[0] as { to: string }).to;
      calls.push(contract);
      const answered = answer(contract);
      if (answered instanceof Error) throw answered;
      return answered;
    },
  } as unknown as NodeClient;
  return { node, calls };
}

const indexWithAllTokens = () => {
  const index = new WatchIndex();
  index.apply({ webhookId: 1, coin: "ETH", addresses: [WATCHED], isActive: true, deleted: false, version: 1, allTokens: true });
  return index;
};

describe("token decimals", () => {
  it("waits for a node that cannot answer, then reads once; an EVM failure is no decimals; another replica reads the table", async ({
    scannerDb,
  }) => {
    const [six, oog, rateLimited, unwatched] = [
      "0x" + "01".repeat(20),
      "0x" + "02".repeat(20),
      "0x" + "03".repeat(20),
      "0x" + "04".repeat(20),
    ];
    const block = blockPaying([six, oog, rateLimited], unwatched);
    const index = indexWithAllTokens();
    let down = true;
    let limited = 2;
    const first = scriptedNode((contract) => {
      if (down) return new NodeUnreachableError(LABEL, [{ url: "http://node", reason: "ECONNREFUSED" }]);
      if (contract === oog) return new NodeRpcError(LABEL, "eth_call", -32000, "out of gas", "node_error");
      if (contract === rateLimited && limited === 2)
        return new NodeRpcError(LABEL, "eth_call", -32005, "daily request limit reached", "node_error");
      if (contract === rateLimited && limited === 1)
        return new NodeRpcError(LABEL, "eth_call", -32000, "execution aborted (timeout = 5s)", "node_error");
      return `0x${word("6")}`;
    });
    const decimals = createTokenDecimals({ coin: "ETH", db: scannerDb.db, node: first.node, listed: new Map() });

    await expect(decimals.prepare(block, index)).rejects.toBeInstanceOf(NodeUnreachableError);
    expect([six, oog, rateLimited].map((contract) => decimals.decimalsOf(contract))).toEqual([undefined, undefined, undefined]);
    down = false;
    // A provider's refusal or a node's own timeout is not the contract's answer: nothing is stored, the block waits.
    await expect(decimals.prepare(block, index)).rejects.toThrow(/daily request limit/);
    limited = 1;
    await expect(decimals.prepare(block, index)).rejects.toThrow(/execution aborted/);
    limited = 0;
    await decimals.prepare(block, index);
    expect([six, oog, rateLimited].map((contract) => decimals.decimalsOf(contract))).toEqual([6, null, 6]);
    // The unwatched payment's contract is never read.
    expect(first.calls).not.toContain(unwatched);
    const calls = first.calls.length;
    await decimals.prepare(block, index);
    expect(first.calls.length).toBe(calls);

    const rows = await scannerDb.db.selectFrom("token_decimals").select(["contract", "decimals"]).orderBy("contract").execute();
    expect(rows).toEqual([
      { contract: six, decimals: 6 },
      { contract: oog, decimals: null },
      { contract: rateLimited, decimals: 6 },
    ]);
    // Another replica (or a restart) takes what the table says, whatever its node would answer now.
    const second = scriptedNode(() => `0x${word("12")}`);
    const replica = createTokenDecimals({ coin: "ETH", db: scannerDb.db, node: second.node, listed: new Map() });
    await replica.prepare(block, index);
    expect([replica.decimalsOf(six), replica.decimalsOf(oog), second.calls]).toEqual([6, null, []]);
  });

  it("reads nothing while no webhook of the chain wants all tokens", async ({ scannerDb }) => {
    const index = new WatchIndex();
    index.apply({ webhookId: 2, coin: "ETH", addresses: [WATCHED], isActive: true, deleted: false, version: 1, includeTokens: true });
    const node = scriptedNode(() => `0x${word("6")}`);
    const decimals = createTokenDecimals({ coin: "ETH", db: scannerDb.db, node: node.node, listed: new Map() });
    await decimals.prepare(blockPaying(["0x" + "05".repeat(20)], "0x" + "06".repeat(20)), index);
    expect(node.calls).toEqual([]);
  });
});
