/**
 * Error answers of the Ethereum routes the other tests only see succeed, at the proxy's internal
 * edge: each is also checked against the OpenAPI document (the edge checks every answer). The 401
 * of a request without an API key is the gateway's: drills/src/e2e/proxy-routes-need-a-key.int.test.ts.
 */
import { expect } from "vitest";
import { INTERNAL_TOKEN_HEADER } from "@chaingate/http";
import type { EthStack } from "../testing/index.ts";
import { ethProxyTest } from "../testing/eth-proxy-fixtures.ts";

const it = ethProxyTest;

const answer = async (stack: EthStack, path: string, init?: RequestInit) => {
  const response = await stack.request(path, init);
  return { status: response.status, body: (await response.json()) as unknown };
};

it("refuses a malformed address and a send-raw without hex before asking the node", async ({ ethStack: stack }) => {
  expect(await answer(stack, "/api/v1/eth/account/0x12/balance")).toMatchObject({ status: 400, body: { error: expect.any(String) } });
  expect(await answer(stack, "/api/v1/eth/transactions/send-raw", { method: "POST", body: "{}" })).toMatchObject({
    status: 422,
    body: { error: expect.any(String), errors: { hex: expect.any(Array) } },
  });
});

it("answers 401 without the internal token on the routes that take no input", async ({ ethStack: stack }) => {
  for (const path of ["/api/v1/eth/health", "/api/v1/eth/account", "/api/v1/eth/gas-price"]) {
    expect(await answer(stack, path, { headers: { [INTERNAL_TOKEN_HEADER]: "" } })).toMatchObject({
      status: 401,
      body: { message: expect.any(String) },
    });
  }
});
