/**
 * Error answers of the Ethereum routes the other tests only see succeed, at the proxy's internal
 * edge: each is also checked against the OpenAPI document (the edge checks every answer). The 401
 * of a request without an API key is the gateway's: drills/src/e2e/proxy-routes-need-a-key.int.test.ts.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { INTERNAL_TOKEN_HEADER } from "@chaingate/http";
import { startEthStack, type EthStack } from "../testing/index.ts";

let stack: EthStack;

beforeAll(async () => {
  stack = await startEthStack();
});
afterAll(() => stack?.stop());

const answer = async (path: string, init?: RequestInit) => {
  const response = await stack.request(path, init);
  return { status: response.status, body: (await response.json()) as unknown };
};

it("refuses a malformed address and a send-raw without hex before asking the node", async () => {
  expect(await answer("/api/v1/eth/account/0x12/balance")).toMatchObject({ status: 400, body: { error: expect.any(String) } });
  expect(await answer("/api/v1/eth/transactions/send-raw", { method: "POST", body: "{}" })).toMatchObject({
    status: 422,
    body: { error: expect.any(String), errors: { hex: expect.any(Array) } },
  });
});

it("answers 401 without the internal token on the routes that take no input", async () => {
  for (const path of ["/api/v1/eth/health", "/api/v1/eth/account", "/api/v1/eth/gas-price"]) {
    expect(await answer(path, { headers: { [INTERNAL_TOKEN_HEADER]: "" } })).toMatchObject({
      status: 401,
      body: { message: expect.any(String) },
    });
  }
});
