/**
 * A stand-in EVM node answering a chain of any length from a small pool of prepared block answers
 * (ethereum-tracing.ts' `blockTexts`): block `h` is body `h % pool` under its own number, hash and
 * parent, its transactions and receipts re-stamped with them after parsing (the block source
 * checks that each receipt is of the block it asked for). Parsing is what a node client pays per
 * answer; the re-stamping is a few hundred assignments. Holding a few bodies instead of every
 * block keeps the fixture out of the memory measured: a live heap of hundreds of MB of prepared
 * text would also let V8 grow the old generation by as much again before collecting it.
 *
 * Each answer is parsed on a later turn of the event loop, as an answer read from a socket is.
 */
import { setImmediate } from "node:timers/promises";
import type { NodeClient } from "@chaingate/node-client";
import type { BlockTexts } from "./ethereum-tracing.ts";

const hex = (n: number) => `0x${n.toString(16)}`;
/** The hash of block `height` of every pooled chain (distinct per height, never another height's). */
export const pooledBlockHash = (height: number) => `0x${Math.max(0, height).toString(16).padStart(64, "0")}`;

interface StampedTransaction {
  blockHash: string;
  blockNumber: string;
}

/** The node of a chain of `blocks` blocks (heights 0 to blocks - 1) made of `bodies` (callTracer's answers; `valueTraces` unused). */
export function pooledEvmNode(bodies: readonly Pick<BlockTexts, "block" | "receipts" | "traces">[], blocks: number): NodeClient {
  const bodyOf = (height: number) => bodies[height % bodies.length]!;
  const heightOfHash = (hash: unknown) => Number(BigInt(String(hash)));
  const stamp = (entries: StampedTransaction[], height: number) => {
    const blockHash = pooledBlockHash(height);
    const blockNumber = hex(height);
    for (const entry of entries) {
      entry.blockHash = blockHash;
      entry.blockNumber = blockNumber;
    }
  };
  const blockAt = (height: number) => {
    if (!(height >= 0 && height < blocks)) return null;
    const block = JSON.parse(bodyOf(height).block) as { transactions: StampedTransaction[] } & Record<string, unknown>;
    block.number = hex(height);
    block.hash = pooledBlockHash(height);
    block.parentHash = pooledBlockHash(height - 1);
    block.timestamp = hex(1_700_000_000 + height * 12);
    stamp(block.transactions, height);
    return block;
  };
  const call = async (method: string, params: readonly unknown[] = []) => {
    await setImmediate();
    switch (method) {
      case "eth_blockNumber":
        return hex(blocks - 1);
      case "eth_getBlockByNumber":
        return blockAt(Number(params[0]));
      case "eth_getBlockReceipts": {
        const height = heightOfHash(params[0]);
        const receipts = JSON.parse(bodyOf(height).receipts) as StampedTransaction[];
        stamp(receipts, height);
        return receipts;
      }
      case "debug_traceBlockByHash":
        if ((params[1] as { tracer?: string } | undefined)?.tracer !== "callTracer")
          throw new Error("the pooled node answers callTracer only");
        return JSON.parse(bodyOf(heightOfHash(params[0])).traces);
      default:
        throw new Error(`the pooled node has no ${method}`);
    }
  };
  return { call } as unknown as NodeClient;
}
