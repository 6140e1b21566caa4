/**
 * Error answers of the Bitcoin routes the other tests only see succeed, at the proxy's internal
 * edge: each is also checked against the OpenAPI document (the edge checks every answer). The 401
 * of a request without an API key is the gateway's: drills/src/e2e/proxy-routes-need-a-key.int.test.ts.
 */
import { expect } from "vitest";
import { INTERNAL_TOKEN_HEADER } from "@chaingate/http";
import type { BtcStack } from "../testing/index.ts";
import { btcProxyTest } from "../testing/btc-proxy-fixtures.ts";

const it = btcProxyTest;

const answer = async (stack: BtcStack, path: string, init?: RequestInit) => {
  const response = await stack.request(path, init);
  return { status: response.status, body: (await response.json()) as unknown };
};

it("answers an unknown block hash's header and a missing transaction's output as the node's not_found", async ({ btcStack: stack }) => {
  expect(await answer(stack, `/api/v1/btc/block/hash/${"00".repeat(32)}/header`)).toMatchObject({
    status: 500,
    body: { error: "Could not connect to BTC node.", details: { reason: "not_found" } },
  });
  expect((await answer(stack, `/api/v1/btc/transactions/${"ab".repeat(32)}/outputs/0`)).status).toBe(200);
  expect(await answer(stack, `/api/v1/btc/transactions/${"ab".repeat(32)}/outputs/x`)).toMatchObject({
    status: 404,
    body: { message: expect.any(String) },
  });
});

it("answers 401 without the internal token on the routes that take no input", async ({ btcStack: stack }) => {
  for (const path of ["/api/v1/btc/block/best", "/api/v1/btc/mempool"]) {
    expect(await answer(stack, path, { headers: { [INTERNAL_TOKEN_HEADER]: "" } })).toMatchObject({
      status: 401,
      body: { message: expect.any(String) },
    });
  }
});
