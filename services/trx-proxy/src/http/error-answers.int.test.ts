/**
 * Error answers of the Tron routes the other tests only see succeed, at the proxy's internal edge:
 * each is also checked against the OpenAPI document (the edge checks every answer). The 401 of a
 * request without an API key is the gateway's: drills/src/e2e/proxy-routes-need-a-key.int.test.ts.
 */
import { expect } from "vitest";
import { INTERNAL_TOKEN_HEADER } from "@chaingate/http";
import type { TrxStack } from "../testing/index.ts";
import { trxProxyTest } from "../testing/trx-proxy-fixtures.ts";

const it = trxProxyTest;

const answer = async (stack: TrxStack, path: string, init?: RequestInit) => {
  const response = await stack.request(path, init);
  return { status: response.status, body: (await response.json()) as unknown };
};

it("answers an unparseable address on /assets as the node failure it is", async ({ trxStack: stack }) => {
  expect(await answer(stack, "/api/v1/trx/account/not-an-address/assets")).toMatchObject({
    status: 500,
    body: { error: "Could not connect to TRX node.", details: { reason: "invalid_argument" } },
  });
});

it("answers 401 without the internal token on the token list", async ({ trxStack: stack }) => {
  expect(await answer(stack, "/api/v1/trx/tokens/trc20", { headers: { [INTERNAL_TOKEN_HEADER]: "" } })).toMatchObject({
    status: 401,
    body: { message: expect.any(String) },
  });
});
