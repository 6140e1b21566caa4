/**
 * Error answers of the Tron routes the other tests only see succeed, through the gateway: each is
 * also checked against the OpenAPI document (the test gateway checks every answer).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTrxStack, type TrxStack } from "../testing/index.ts";

let stack: TrxStack;

beforeAll(async () => {
  stack = await startTrxStack();
});
afterAll(() => stack?.stop());

const answer = async (path: string, init?: RequestInit) => {
  const response = await stack.request(path, init);
  return { status: response.status, body: (await response.json()) as unknown };
};

it("answers an unparseable address on /assets as the node failure it is", async () => {
  expect(await answer("/api/v1/trx/account/not-an-address/assets")).toMatchObject({ status: 500, body: { error: "Could not connect to TRX node.", details: { reason: "invalid_argument" } } });
});

it("answers 401 without a key on the token list", async () => {
  expect(await answer("/api/v1/trx/tokens/trc20", { headers: { "x-api-key": "" } })).toMatchObject({ status: 401, body: { message: expect.any(String) } });
});
