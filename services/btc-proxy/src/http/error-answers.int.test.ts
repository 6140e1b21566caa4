/**
 * Error answers of the Bitcoin routes the other tests only see succeed, at the proxy's internal
 * edge: each is also checked against the OpenAPI document (the edge checks every answer). The 401
 * of a request without an API key is the gateway's: drills/src/e2e/proxy-routes-need-a-key.int.test.ts.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { INTERNAL_TOKEN_HEADER } from "@chaingate/http";
import { startBtcStack, type BtcStack } from "../testing/index.ts";

let stack: BtcStack;

beforeAll(async () => {
  stack = await startBtcStack();
});
afterAll(() => stack?.stop());

const answer = async (path: string, init?: RequestInit) => {
  const response = await stack.request(path, init);
  return { status: response.status, body: (await response.json()) as unknown };
};

it("answers an unknown block hash's header and a missing transaction's output as the node's not_found", async () => {
  expect(await answer(`/api/v1/btc/block/hash/${"00".repeat(32)}/header`)).toMatchObject({
    status: 500,
    body: { error: "Could not connect to BTC node.", details: { reason: "not_found" } },
  });
  expect((await answer(`/api/v1/btc/transactions/${"ab".repeat(32)}/outputs/0`)).status).toBe(200);
  expect(await answer(`/api/v1/btc/transactions/${"ab".repeat(32)}/outputs/x`)).toMatchObject({
    status: 404,
    body: { message: expect.any(String) },
  });
});

it("answers 401 without the internal token on the routes that take no input", async () => {
  for (const path of ["/api/v1/btc/block/best", "/api/v1/btc/mempool"]) {
    expect(await answer(path, { headers: { [INTERNAL_TOKEN_HEADER]: "" } })).toMatchObject({
      status: 401,
      body: { message: expect.any(String) },
    });
  }
});
