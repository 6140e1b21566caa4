/** Ethereum's calls: a lagging view, null receipts and failed call traces. */
import type { NodeFaultCounters } from "../node-fault-proxy.ts";
import { JSON_TYPE, jsonRpcAnswer, resultOf, servedTip, type Answer, type JsonRpcCall, type RequestContext } from "./proxy-answer.ts";

const quantity = (value: number) => `0x${value.toString(16)}`;

/** EIP-1474 "method not found" and Hardhat's "method not supported". */
const UNSUPPORTED_METHOD_CODES = new Set([-32601, -32004]);

/**
 * `eth_getBlockReceipts` for a node without it (Hardhat 2): the block's receipts one
 * `eth_getTransactionReceipt` at a time, as geth and the providers answer it (null for no block).
 */
async function blockReceipts(call: JsonRpcCall, send: (call: JsonRpcCall) => Promise<Answer>): Promise<Answer> {
  const answer = await send(call);
  const code = (JSON.parse(answer.body) as { error?: { code?: number } }).error?.code;
  if (code === undefined || !UNSUPPORTED_METHOD_CODES.has(code)) return answer;
  const [block] = call.params ?? [];
  const byHash = typeof block === "string" && block.length === 66;
  const header = resultOf(
    await send({ ...call, method: byHash ? "eth_getBlockByHash" : "eth_getBlockByNumber", params: [block, false] }),
  ) as { transactions: string[] } | null;
  const receipts =
    header &&
    (await Promise.all(
      header.transactions.map(async (hash) => resultOf(await send({ ...call, method: "eth_getTransactionReceipt", params: [hash] }))),
    ));
  return { status: 200, contentType: JSON_TYPE, body: jsonRpcAnswer("ethereum", call, { result: receipts }) };
}
export async function answerEthereumCall(
  call: JsonRpcCall,
  path: string,
  context: RequestContext,
  counters: NodeFaultCounters,
): Promise<Answer> {
  const send = (forwarded: JsonRpcCall) => context.forward(path, JSON.stringify(forwarded));
  const forward = (forwarded: JsonRpcCall) =>
    forwarded.method === "eth_getBlockReceipts" ? blockReceipts(forwarded, send) : send(forwarded);
  const result = (value: unknown): Answer => ({
    status: 200,
    contentType: JSON_TYPE,
    body: jsonRpcAnswer("ethereum", call, { result: value }),
  });
  const missing = () => (counters.missingBlocks++, result(null));
  if (call.method === "eth_getBlockReceipts" && context.draw() < context.faults.nullReceipts) {
    counters.nullReceipts++;
    return result(null);
  }
  const traces = call.method === "debug_traceBlockByHash" || call.method === "trace_block";
  if (traces && context.draw() < context.faults.failedTraces) {
    counters.failedTraces++;
    return {
      status: 200,
      contentType: JSON_TYPE,
      body: jsonRpcAnswer("ethereum", call, { error: { code: -32000, message: "execution timeout" } }),
    };
  }
  if (context.lag === 0) return forward(call);
  const tip = () => servedTip(context, async () => Number(resultOf(await forward({ ...call, method: "eth_blockNumber", params: [] }))));
  const params = call.params ?? [];
  /** A block number or tag: the served tip for "latest", a number for a number, undefined for other tags. */
  const heightOf = async (tag: unknown) =>
    tag === "latest" ? tip() : typeof tag === "string" && tag.startsWith("0x") && tag.length <= 18 ? Number(tag) : undefined;
  /** The block number of a block (`number`), a receipt or the first of a block's receipts (`blockNumber`). */
  const blockNumberOf = (answer: Answer) => {
    const value = resultOf(answer);
    const item = (Array.isArray(value) ? value[0] : value) as { number?: unknown; blockNumber?: unknown } | null | undefined;
    const number = item?.blockNumber ?? item?.number;
    return typeof number === "string" ? Number(number) : undefined;
  };
  switch (call.method) {
    case "eth_blockNumber":
      counters.tipsRewritten++;
      return result(quantity(await tip()));
    case "eth_getBlockByNumber": {
      const height = await heightOf(params[0]);
      if (height === undefined) return forward(call);
      if (height > (await tip())) return missing();
      if (params[0] === "latest") counters.tipsRewritten++;
      return forward({ ...call, params: [quantity(height), ...params.slice(1)] });
    }
    case "debug_traceBlockByHash":
    case "trace_block": {
      const [block] = params;
      const header = resultOf(
        await forward({
          ...call,
          method: call.method === "trace_block" ? "eth_getBlockByNumber" : "eth_getBlockByHash",
          params: [block, false],
        }),
      ) as { number?: string } | null;
      if (header?.number === undefined || Number(header.number) <= (await tip())) return forward(call);
      counters.missingBlocks++;
      return {
        status: 200,
        contentType: JSON_TYPE,
        body: jsonRpcAnswer("ethereum", call, { error: { code: -32000, message: `block ${String(block)} not found` } }),
      };
    }
    case "eth_getBlockByHash":
    case "eth_getBlockReceipts":
    case "eth_getTransactionReceipt": {
      // eth_getBlockReceipts takes a number, a tag or a hash: read the block's number from the answer.
      const answer = await forward(call);
      const number = blockNumberOf(answer);
      return number !== undefined && number > (await tip()) ? missing() : answer;
    }
    default:
      return forward(call);
  }
}
