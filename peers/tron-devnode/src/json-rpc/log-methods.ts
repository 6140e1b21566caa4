/** eth_getLogs: the logs of a block range (or one block), filtered by address and topics. */
import { toEvmAddress } from "../address.ts";
import { toHex } from "../hex.ts";
import type { StoredBlock } from "../ledger/stored-block.ts";
import { blockNumberFromTag } from "./block-tag.ts";
import { logObjects } from "./eth-objects.ts";
import type { JsonRpcContext, JsonRpcMethods } from "./json-rpc-context.ts";
import { parseAddressParam } from "./parse-address-param.ts";
import { INVALID_PARAMS, RpcError } from "./rpc-error.ts";

/** LogFilterWrapper: the block range of an eth_getLogs filter, with java-tron's checks and messages. */
function logRange({ ledger, maxBlockRange }: JsonRpcContext, filter: Record<string, unknown>): { from: number; to: number } {
  const head = ledger.head.raw.number;
  const given = (value: unknown): boolean => value !== undefined && value !== null && value !== "";
  if (given(filter.blockHash)) {
    if (given(filter.fromBlock) || given(filter.toBlock)) {
      throw new RpcError(INVALID_PARAMS, "cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other");
    }
    const block = typeof filter.blockHash === "string" ? ledger.blockById(filter.blockHash.replace(/^0x/, "")) : undefined;
    if (!block) throw new RpcError(INVALID_PARAMS, "invalid blockHash");
    return { from: block.raw.number, to: block.raw.number };
  }
  let from = given(filter.fromBlock) ? blockNumberFromTag(ledger, filter.fromBlock) : -1;
  let to = given(filter.toBlock) ? blockNumberFromTag(ledger, filter.toBlock) : -1;
  if (to === -1) to = Number.MAX_SAFE_INTEGER;
  if (from === -1) from = given(filter.fromBlock) || !given(filter.toBlock) ? head : Math.min(to, head);
  if (given(filter.fromBlock) && given(filter.toBlock) && from > to)
    throw new RpcError(INVALID_PARAMS, "please verify: fromBlock <= toBlock");
  if (maxBlockRange > 0 && Math.min(to, head) - from > maxBlockRange)
    throw new RpcError(INVALID_PARAMS, `exceed max block range: ${maxBlockRange}`);
  return { from, to: Math.min(to, head) };
}

/** eth_getLogs over the filter `params[0]`. */
function getLogs(context: JsonRpcContext, params: unknown[]): Record<string, unknown>[] {
  const filter = (params[0] ?? {}) as Record<string, unknown>;
  const { from, to } = logRange(context, filter);
  const blocks: StoredBlock[] = [];
  for (let number = from; number <= to; number += 1) blocks.push(context.ledger.blockByNumber(number) as StoredBlock);
  const addresses = (Array.isArray(filter.address) ? filter.address : filter.address === undefined ? [] : [filter.address]).map((value) =>
    toHex(toEvmAddress(Buffer.from(parseAddressParam(value), "hex"))),
  );
  const topics = Array.isArray(filter.topics) ? filter.topics : [];
  const matchesTopics = (logTopics: unknown[]): boolean =>
    topics.every((wanted, position) => {
      if (wanted === null || wanted === undefined) return true;
      const options = (Array.isArray(wanted) ? wanted : [wanted]).map((topic) => String(topic).toLowerCase());
      return options.includes(String(logTopics[position] ?? ""));
    });
  const logs: Record<string, unknown>[] = [];
  for (const block of blocks) {
    let logIndex = 0;
    block.transactions.forEach((entry, index) => {
      for (const log of logObjects(entry, block, index, logIndex)) {
        const address = String(log.address).slice(2);
        if ((addresses.length === 0 || addresses.includes(address)) && matchesTopics(log.topics as unknown[])) logs.push(log);
      }
      logIndex += entry.logs.length;
    });
  }
  return logs;
}

/** The log methods. */
export function logMethods(context: JsonRpcContext): JsonRpcMethods {
  return { eth_getLogs: (params) => getLogs(context, params) };
}
