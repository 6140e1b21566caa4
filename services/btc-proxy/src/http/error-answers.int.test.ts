/**
 * Error answers of the Bitcoin routes the other tests only see succeed, through the gateway: each
 * is also checked against the OpenAPI document (the test gateway checks every answer).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
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
  expect(await answer(`/api/v1/btc/block/hash/${"00".repeat(32)}/header`)).toMatchObject({ status: 500, body: { error: "Could not connect to BTC node.", details: { reason: "not_found" } } });
  expect((await answer(`/api/v1/btc/transactions/${"ab".repeat(32)}/outputs/0`)).status).toBe(200);
  expect(await answer(`/api/v1/btc/transactions/${"ab".repeat(32)}/outputs/x`)).toMatchObject({ status: 404, body: { message: expect.any(String) } });
});

it("answers 401 without a key on the routes that take no input", async () => {
  for (const path of ["/api/v1/btc/block/best", "/api/v1/btc/mempool"]) {
    expect(await answer(path, { headers: { "x-api-key": "" } })).toMatchObject({ status: 401, body: { message: expect.any(String) } });
  }
});
