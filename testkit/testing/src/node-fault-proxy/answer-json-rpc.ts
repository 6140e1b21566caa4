/** JSON-RPC (bitcoind and Ethereum nodes): a single call or a batch, each call answered by its chain's answerer. */
import type { NodeFaultCounters } from "../node-fault-proxy.ts";
import { JSON_TYPE, type Answer, type JsonRpcCall, type RequestContext } from "./proxy-answer.ts";
import { answerBitcoinCall } from "./answer-bitcoin-call.ts";
import { answerEthereumCall } from "./answer-ethereum-call.ts";

export async function answerJsonRpc(
  chain: "bitcoin" | "ethereum",
  path: string,
  body: string,
  context: RequestContext,
  counters: NodeFaultCounters,
): Promise<Answer> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return context.forward(path, body);
  }
  const one = (call: JsonRpcCall) =>
    chain === "bitcoin" ? answerBitcoinCall(call, path, context, counters) : answerEthereumCall(call, path, context, counters);
  if (!Array.isArray(parsed))
    return typeof parsed === "object" && parsed !== null ? one(parsed as JsonRpcCall) : context.forward(path, body);
  if (parsed.length === 0) return context.forward(path, body);
  // Call by call, in order (the schedule stays reproducible), each answer's bytes kept.
  const answers: string[] = [];
  for (const call of parsed as JsonRpcCall[]) answers.push((await one(call)).body);
  return { status: 200, contentType: JSON_TYPE, body: `[${answers.join(",")}]` };
}
