/** java-tron's HTTP API: a lagging view and empty transaction infos. */
import type { NodeFaultCounters } from "../node-fault-proxy.ts";
import { JSON_TYPE, servedTip, type Answer, type RequestContext } from "./proxy-answer.ts";

export async function answerTron(url: string, body: string, context: RequestContext, counters: NodeFaultCounters): Promise<Answer> {
  const [path = "/", query] = url.split("?", 2) as [string, string | undefined];
  const suffix = query === undefined ? "" : `?${query}`;
  const api = /^\/(wallet|walletsolidity)\/(\w+)$/.exec(path);
  const method = api?.[2];
  const json = (value: unknown): Answer => ({ status: 200, contentType: JSON_TYPE, body: JSON.stringify(value) });
  if (method === "gettransactioninfobyblocknum" && context.draw() < context.faults.emptyTransactionInfo) {
    counters.emptyTransactionInfo++;
    return json([]);
  }
  if (!api || context.lag === 0) return context.forward(url, body);
  const prefix = `/${api[1]}`;
  const numberOf = (answer: Answer) => {
    try {
      return (JSON.parse(answer.body) as { block_header?: { raw_data?: { number?: number } } }).block_header?.raw_data?.number;
    } catch {
      return undefined;
    }
  };
  const tip = () => servedTip(context, async () => numberOf(await context.forward(`${prefix}/getnowblock`, "{}")) ?? 0);
  let request: Record<string, unknown> = {};
  try {
    request = body ? (JSON.parse(body) as Record<string, unknown>) : {};
  } catch {
    return context.forward(url, body);
  }
  const missing = (value: unknown) => (counters.missingBlocks++, json(value));
  switch (method) {
    case "getnowblock": {
      counters.tipsRewritten++;
      return context.forward(`${prefix}/getblockbynum${suffix}`, JSON.stringify({ num: await tip() }));
    }
    case "getblockbynum":
      return Number(request.num ?? 0) > (await tip()) ? missing({}) : context.forward(url, body);
    case "gettransactioninfobyblocknum":
      return Number(request.num ?? 0) > (await tip()) ? missing([]) : context.forward(url, body);
    case "getblock":
    case "getblockbyid": {
      const idOrNum = String(request.id_or_num ?? request.value ?? "");
      if (method === "getblock" && idOrNum === "") {
        counters.tipsRewritten++;
        return context.forward(url, JSON.stringify({ ...request, id_or_num: String(await tip()) }));
      }
      const answer = await context.forward(url, body);
      const number = numberOf(answer);
      return number !== undefined && number > (await tip()) ? missing({}) : answer;
    }
    default:
      return context.forward(url, body);
  }
}
