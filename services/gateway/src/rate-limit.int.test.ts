/**
 * RATE_LIMIT_REQUESTS_PER_KEY_PER_SECOND through a real gateway (answers checked against the OpenAPI
 * document): off by default (the spec's v1 has no rate limit); when set, a key past it gets 429
 * `{message}` with `Retry-After`, other accounts are unaffected, and the key passes again a second later.
 * The same limit counts every account over all its keys (RATE_LIMIT_REQUESTS_PER_ACCOUNT_PER_SECOND,
 * by default the per-key value), so minting keys does not multiply it. The limit is one across
 * replicas (gateways on one database share it). No upstream is configured:
 * an admitted request answers 503 "not configured", which is enough to tell it from a refused one.
 */
import { expect } from "vitest";
import { gatewayTest } from "./testing/gateway-fixtures.ts";
import { createAccountWithKey, startTestGateway, type TestGateway } from "./testing/index.ts";

const LIMIT = 3;
/** Another gateway over the file's database, with `settings`; closed after the file. */
const replica =
  (settings: Record<string, string>) =>
  async ({ database }: { database: { connectionString: string } }, use: (gateway: TestGateway) => Promise<void>) => {
    const gateway = await startTestGateway(settings, database.connectionString);
    try {
      await use(gateway);
    } finally {
      await gateway.close();
    }
  };

gatewayTest.scoped({ gatewaySettings: { RATE_LIMIT_REQUESTS_PER_KEY_PER_SECOND: String(LIMIT) } });
const it = gatewayTest.extend<{ unlimited: TestGateway; secondReplica: TestGateway }>({
  /** A replica without the limit. */
  unlimited: [replica({}), { scope: "file" }],
  /** A replica with the same limit, sharing it. */
  secondReplica: [replica({ RATE_LIMIT_REQUESTS_PER_KEY_PER_SECOND: String(LIMIT) }), { scope: "file" }],
});

const burst = async (gatewayUrl: string, key: string, count: number) =>
  Promise.all(
    Array.from({ length: count }, async () => {
      const response = await fetch(`${gatewayUrl}/api/v1/webhooks`, { headers: { "x-api-key": key, accept: "application/json" } });
      return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as unknown };
    }),
  );

it("refuses a key's requests past the limit with 429 {message} and Retry-After; other keys and later seconds pass", async ({
  gateway: limited,
}) => {
  const alice = await createAccountWithKey(limited.databaseUrl, "alice");
  const bob = await createAccountWithKey(limited.databaseUrl, "bob");
  const answers = await burst(limited.url, alice.key, LIMIT + 3);
  expect(answers.map((answer) => answer.status).sort()).toEqual([429, 429, 429, 503, 503, 503]);
  for (const refused of answers.filter((answer) => answer.status === 429)) {
    expect(refused).toEqual({
      status: 429,
      retryAfter: "1",
      body: {
        message: `Too many requests for this API key: the limit is ${LIMIT} per second (RATE_LIMIT_REQUESTS_PER_KEY_PER_SECOND); retry after 1 second.`,
      },
    });
  }
  expect((await burst(limited.url, bob.key, 1))[0]!.status).toBe(503);
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  expect((await burst(limited.url, alice.key, LIMIT)).map((answer) => answer.status)).toEqual([503, 503, 503]);
});

it("counts an account's keys together: a key the account mints does not bring a fresh allowance", async ({
  gateway: limited,
  unlimited,
}) => {
  const erin = await createAccountWithKey(limited.databaseUrl, "erin");
  // The second key is made on the unlimited replica, so making it spends nothing of the limit.
  const minted = await fetch(`${unlimited.url}/api/v1/keys`, {
    method: "POST",
    headers: { "x-api-key": erin.key, accept: "application/json" },
  });
  const second = ((await minted.json()) as { data: { key: string } }).data.key;
  expect((await burst(limited.url, erin.key, LIMIT)).map((answer) => answer.status)).toEqual([503, 503, 503]);
  expect(await burst(limited.url, second, 1)).toEqual([
    {
      status: 429,
      retryAfter: "1",
      body: {
        message: `Too many requests for this account: the limit is ${LIMIT} per second over all its keys (RATE_LIMIT_REQUESTS_PER_ACCOUNT_PER_SECOND); retry after 1 second.`,
      },
    },
  ]);
});

it("is off by default: a burst of one key is never refused", async ({ gateway: limited, unlimited }) => {
  const { key } = await createAccountWithKey(limited.databaseUrl, "carol");
  const answers = await burst(unlimited.url, key, 30);
  expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([503]));
});

it("is one limit for all replicas: a key spreading a burst over two gateways gets the limit once, not once per replica", async ({
  gateway: limited,
  secondReplica,
}) => {
  const { key } = await createAccountWithKey(limited.databaseUrl, "dave");
  const startedMs = Date.now();
  const answers = (await Promise.all([burst(limited.url, key, LIMIT * 2), burst(secondReplica.url, key, LIMIT * 2)])).flat();
  const elapsedSeconds = (Date.now() - startedMs) / 1000;
  const admitted = answers.filter((answer) => answer.status === 503).length;
  // The bucket holds one second's worth and refills while the burst runs. (A failure names every
  // answer: a shortfall of 429s and one of other statuses have different causes.)
  const statuses = JSON.stringify(answers.map((answer) => [answer.status, answer.body]));
  expect(admitted, statuses).toBeGreaterThanOrEqual(LIMIT);
  expect(admitted).toBeLessThanOrEqual(LIMIT + Math.floor(elapsedSeconds * LIMIT));
  expect(answers.filter((answer) => answer.status === 429)).toHaveLength(answers.length - admitted);
});
