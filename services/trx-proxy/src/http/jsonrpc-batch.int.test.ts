/**
 * POST /api/v1/trx/jsonrpc batches at the proxy's internal edge against the Tron dev node: up to
 * JSONRPC_MAX_BATCH (default 1,000) calls, checked whole, sent to the node in chunks of
 * TRON_NODE_MAX_BATCH (here 25), answered as one array in request order.
 */
import { expect } from "vitest";
import type { TrxStack } from "../testing/index.ts";
import { trxProxyTest } from "../testing/trx-proxy-fixtures.ts";

trxProxyTest.scoped({ trxStackSettings: { env: { TRON_NODE_MAX_BATCH: "25" } } });
const it = trxProxyTest;

const rpc = async (stack: TrxStack, body: unknown) => {
  const response = await stack.request("/api/v1/trx/jsonrpc", { method: "POST", body: JSON.stringify(body) });
  return { status: response.status, contentType: response.headers.get("content-type"), body: (await response.json()) as unknown };
};

it("answers a batch of 1,000 calls in request order, a refused one refusing all, 1,001 refused whole", async ({ trxStack: stack }) => {
  const call = (id: number) =>
    id % 2 === 0 ? { jsonrpc: "2.0", id, method: "eth_chainId" } : { jsonrpc: "2.0", id, method: "eth_blockNumber", params: [] };
  const full = await rpc(
    stack,
    Array.from({ length: 1_000 }, (_, i) => call(i)),
  );
  // The node's own content type, passed on.
  const direct = await fetch(`${stack.devnode.url}/jsonrpc`, { method: "POST", body: JSON.stringify(call(0)) });
  expect(full).toMatchObject({ status: 200, contentType: direct.headers.get("content-type") });
  const answers = full.body as { id: number; result: string }[];
  expect(answers.map((answer) => answer.id)).toEqual(Array.from({ length: 1_000 }, (_, i) => i));
  expect(answers[998]!.result).toBe("0xa57cb69c");
  expect(answers[999]!.result).toMatch(/^0x[0-9a-f]+$/);
  expect(
    await rpc(
      stack,
      Array.from({ length: 1_001 }, (_, i) => call(i)),
    ),
  ).toMatchObject({
    status: 400,
    body: { error: { code: -32600 }, id: null },
  });
  expect(
    await rpc(stack, [
      ...Array.from({ length: 50 }, (_, i) => call(i)),
      { jsonrpc: "2.0", id: 50, method: "eth_sendRawTransaction", params: ["0x00"] },
    ]),
  ).toMatchObject({
    status: 403,
    body: { error: { code: -32601 }, id: null },
  });
});
