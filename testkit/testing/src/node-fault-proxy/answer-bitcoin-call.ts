/** bitcoind's calls under a lagging view: the tip and heights above it answered as the node would. */
import type { NodeFaultCounters } from "../node-fault-proxy.ts";
import { JSON_TYPE, jsonRpcAnswer, resultOf, servedTip, type Answer, type JsonRpcCall, type RequestContext } from "./proxy-answer.ts";

/** bitcoind's codes for a height above its tip and an unknown block hash. */
const BITCOIN_HEIGHT_OUT_OF_RANGE = { code: -8, message: "Block height out of range" };
const BITCOIN_BLOCK_NOT_FOUND = { code: -5, message: "Block not found" };
/** bitcoind answers a single call's error with HTTP 500 (404 for an unknown method). */
const BITCOIN_ERROR_STATUS = 500;

export async function answerBitcoinCall(
  call: JsonRpcCall,
  path: string,
  context: RequestContext,
  counters: NodeFaultCounters,
): Promise<Answer> {
  const forward = (forwarded: JsonRpcCall) => context.forward(path, JSON.stringify(forwarded));
  const error = (member: { code: number; message: string }): Answer => {
    counters.missingBlocks++;
    return { status: BITCOIN_ERROR_STATUS, contentType: JSON_TYPE, body: jsonRpcAnswer("bitcoin", call, { error: member }) };
  };
  if (context.lag === 0) return forward(call);
  const tip = () => servedTip(context, async () => Number(resultOf(await forward({ ...call, method: "getblockcount", params: [] }))));
  const params = call.params ?? [];
  switch (call.method) {
    case "getblockcount": {
      counters.tipsRewritten++;
      return { status: 200, contentType: JSON_TYPE, body: jsonRpcAnswer("bitcoin", call, { result: await tip() }) };
    }
    case "getbestblockhash": {
      counters.tipsRewritten++;
      return forward({ ...call, method: "getblockhash", params: [await tip()] });
    }
    case "getblockhash":
      return Number(params[0]) > (await tip()) ? error(BITCOIN_HEIGHT_OUT_OF_RANGE) : forward(call);
    case "getblock":
    case "getblockheader": {
      const answer = await forward(call);
      const height = (resultOf(answer) as { height?: number } | undefined)?.height;
      return height !== undefined && height > (await tip()) ? error(BITCOIN_BLOCK_NOT_FOUND) : answer;
    }
    default:
      return forward(call);
  }
}
