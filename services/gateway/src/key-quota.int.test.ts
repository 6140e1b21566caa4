/**
 * QUOTA_API_KEYS_PER_ACCOUNT through a real gateway (answers checked against the OpenAPI document):
 * of parallel creates exactly the quota's worth pass, the rest get 422 in the spec's validation
 * shape naming the setting; a deactivated key frees its slot; another account is unaffected; the
 * operator CLI is not held to it and shows the account's usage next to the services' quotas.
 */
import type { RequestListener } from "node:http";
import pg from "pg";
import { expect } from "vitest";
import { gatewayTest } from "./testing/gateway-fixtures.ts";
import { createAccountWithKey, runAdminCli, type TestGateway } from "./testing/index.ts";

const QUOTA = 3;
const QUOTA_MESSAGE = `This account already has ${QUOTA} active API keys, its quota (QUOTA_API_KEYS_PER_ACCOUNT = ${QUOTA}); deactivate a key or ask the operator to raise the quota.`;

/** Stands in for the delivery and xpub services' internal quota route: no quotas of theirs. */
const quotaServices: RequestListener = (req, res) => {
  const accountId = Number(/(\d+)$/.exec(req.url ?? "")?.[1]);
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ account_id: accountId, quotas: [] }));
};
// The stand-in is the operator CLI's (`standInUpstream`): the file's gateway does not call it.
gatewayTest.scoped({
  gatewaySettings: { QUOTA_API_KEYS_PER_ACCOUNT: String(QUOTA) },
  standInSettings: { listener: quotaServices, urlSettings: [] },
});
const it = gatewayTest;

async function call(gateway: TestGateway, method: string, path: string, key: string) {
  const response = await fetch(`${gateway.url}${path}`, { method, headers: { "x-api-key": key, accept: "application/json" } });
  return { status: response.status, body: (await response.json()) as { data: { id: number; key: string }; message?: string } };
}
const createKey = (gateway: TestGateway, key: string) => call(gateway, "POST", "/api/v1/keys", key);

it("lets exactly the quota of parallel creates through; the rest get 422 {message, errors.keys}; a deactivated key frees its slot", async ({
  gateway,
}) => {
  const { key } = await createAccountWithKey(gateway.databaseUrl, "many keys"); // the first active key
  const answers = await Promise.all(Array.from({ length: 6 }, () => createKey(gateway, key)));
  expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 422, 422, 422, 422]);
  for (const refused of answers.filter((answer) => answer.status === 422))
    expect(refused.body).toEqual({ message: QUOTA_MESSAGE, errors: { keys: [QUOTA_MESSAGE] } });

  expect((await createKey(gateway, (await createAccountWithKey(gateway.databaseUrl, "another")).key)).status).toBe(201);
  const minted = answers.find((answer) => answer.status === 201)!.body.data;
  expect((await call(gateway, "POST", `/api/v1/keys/${minted.id}/deactivate`, key)).status).toBe(200);
  expect((await createKey(gateway, key)).status).toBe(201);
  expect((await createKey(gateway, key)).status).toBe(422);
});

it("does not hold the operator CLI to it, and shows the account's active keys against it in `admin quotas`", async ({
  gateway,
  standInUpstream: base,
}) => {
  const { accountId, key } = await createAccountWithKey(gateway.databaseUrl, "operator");
  expect((await createKey(gateway, key)).status).toBe(201);
  await runAdminCli(gateway.databaseUrl, ["keys", "create", "--account", String(accountId)]);
  await runAdminCli(gateway.databaseUrl, ["keys", "create", "--account", String(accountId)]);
  const table = await runAdminCli(gateway.databaseUrl, ["quotas", "--account", String(accountId)], {
    DELIVERY_URL: base,
    XPUB_URL: base,
    QUOTA_API_KEYS_PER_ACCOUNT: String(QUOTA),
  });
  expect(
    table
      .trim()
      .split("\n")
      .map((line) => line.split("\t")),
  ).toEqual([
    ["service", "quota", "used", "limit"],
    ["gateway", "QUOTA_API_KEYS_PER_ACCOUNT", "4", String(QUOTA)],
  ]);
});

it("lists every key of an account in the operator CLI, however many its deactivated keys (read in batches, not at once)", async ({
  gateway,
}) => {
  const { accountId } = await createAccountWithKey(gateway.databaseUrl, "long history");
  const client = new pg.Client({ connectionString: gateway.databaseUrl });
  await client.connect();
  try {
    // 2,500 deactivated keys: more than two of the listing's 1,000-row statements.
    await client.query(
      `insert into gateway.api_keys (account_id, prefix, secret_hash, active, deactivated_at)
       select $1, 'old' || lpad(n::text, 5, '0'), '\\x00', false, now() from generate_series(1, 2500) as n`,
      [accountId],
    );
  } finally {
    await client.end();
  }
  const rows = (await runAdminCli(gateway.databaseUrl, ["keys", "list", "--account", String(accountId)]))
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => line.split("\t"));
  expect(rows).toHaveLength(2501);
  const ids = rows.map((row) => Number(row[0]));
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  expect(new Set(ids).size).toBe(2501);
  expect(rows.filter((row) => row[4] === "false")).toHaveLength(2500);
});
