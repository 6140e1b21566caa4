/**
 * The account API (`/api/v1/keys*`, `/api/v1/usage`, `/api/v1/operator/*`) over a real gateway and
 * Postgres: scoped to the caller's account, in the spec's error shapes, every answer checked
 * against the OpenAPI document; and no API key in the gateway's log lines for that traffic.
 */
import { Writable } from "node:stream";
import { loadConfig } from "@chaingate/config";
import { createLogger } from "@chaingate/logger";
import { describe, expect } from "vitest";
import { gatewayConfigSchema } from "../config.ts";
import { createGateway, type Gateway } from "../create-gateway.ts";
import { checkAnswers } from "@chaingate/testing";
import { gatewayTest } from "../testing/gateway-fixtures.ts";
import { createAccountWithKey } from "../testing/index.ts";
import { KEY_NOT_FOUND_MESSAGE, OPERATOR_TOKEN_MESSAGE } from "./account-routes.ts";
import { INVALID_KEY_MESSAGE, MISSING_KEY_MESSAGE } from "./authenticate-request.ts";
import { DEFAULT_KEY_CACHE_TTL_MS } from "../infra/api-key-store.ts";

const OPERATOR_TOKEN = "operator-token-for-tests-0123456789abcdef";

type Caller = { accountId: number; key: string };

/** One call to the account API as JSON: its status and parsed body. */
const caller =
  (gatewayUrl: string) =>
  async (method: string, path: string, headers: Record<string, string>, body?: unknown, base = gatewayUrl) => {
    const answer = await fetch(`${base}${path}`, {
      method,
      headers: { accept: "application/json", ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answer.text();
    return { status: answer.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> & { data: never; message: string } };
  };

gatewayTest.scoped({ gatewaySettings: { CONSOLE_OPERATOR_TOKEN: OPERATOR_TOKEN } });
const it = gatewayTest.extend<{
  accountApi: ReturnType<typeof caller>;
  loggedGateway: { gateway: Gateway; lines: string[] };
  keyHolders: { alice: Caller; bob: Caller };
}>({
  /** `call(method, path, headers, body?, base?)`: the account API of the file's gateway (or of the one at `base`). */
  accountApi: [async ({ gateway }, use) => use(caller(gateway.url)), { scope: "file" }],
  /** A second gateway over the same database whose log lines are kept (and checked for keys); without the operator token. */
  loggedGateway: [
    async ({ gateway }, use) => {
      const lines: string[] = [];
      const destination = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString("utf8")), done()) });
      const config = loadConfig("gateway", gatewayConfigSchema, {
        PORT: "0",
        DATABASE_URL: gateway.databaseUrl,
        ACCESS_LOG: "true",
        LOG_LEVEL: "debug",
      });
      const logged = await createGateway(config, createLogger({ service: "gateway", level: "debug", destination }));
      try {
        checkAnswers(logged.server.server);
        await logged.ready;
        await use({ gateway: logged, lines });
      } finally {
        await logged.close();
      }
    },
    { scope: "file" },
  ],
  /** Two accounts with a key each. */
  keyHolders: [
    async ({ gateway }, use) => {
      const alice = await createAccountWithKey(gateway.databaseUrl, "alice");
      const bob = await createAccountWithKey(gateway.databaseUrl, "bob");
      await use({ alice, bob });
    },
    { scope: "file" },
  ],
});
const as = (key: string) => ({ "x-api-key": key });

describe("keys of the caller's account", () => {
  it("lists only the caller's keys, marking the one in use, without the key itself", async ({
    accountApi: call,
    keyHolders: { alice },
  }) => {
    const { status, body } = await call("GET", "/api/v1/keys", as(alice.key));
    expect(status).toBe(200);
    const keys = body.data as Array<Record<string, unknown>>;
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ prefix: alice.key.slice(0, 8), active: true, current: true, deactivated_at: null });
    expect(JSON.stringify(body)).not.toContain(alice.key);
  });

  it("creates a key shown once; it works at once and appears in the list without its value", async ({
    accountApi: call,
    keyHolders: { alice },
  }) => {
    const created = await call("POST", "/api/v1/keys", as(alice.key), { name: "worker" });
    expect(created.status).toBe(201);
    const key = (created.body.data as { key: string; id: number; prefix: string; current: boolean }).key;
    expect(key).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(created.body.data).toMatchObject({ name: "worker", active: true, current: false, prefix: key.slice(0, 8) });
    const listed = await call("GET", "/api/v1/keys", as(key));
    expect(listed.status).toBe(200);
    expect((listed.body.data as Array<{ name: string | null; current: boolean }>).map((k) => [k.name, k.current])).toEqual([
      [null, false],
      ["worker", true],
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(key);
  });

  it("creates a key without a body", async ({ gateway, keyHolders: { bob } }) => {
    const created = await fetch(`${gateway.url}/api/v1/keys`, { method: "POST", headers: as(bob.key) });
    expect(created.status).toBe(201);
  });

  it("refuses a bad name with 422 {message, errors}", async ({ accountApi: call, keyHolders: { alice } }) => {
    const { status, body } = await call("POST", "/api/v1/keys", as(alice.key), { name: "x".repeat(101) });
    expect(status).toBe(422);
    expect(body).toEqual({
      message: "The name field must not be greater than 100 characters.",
      errors: { name: ["The name field must not be greater than 100 characters."] },
    });
  });

  it("deactivates a key: the very next request with it is refused there, and on another replica within the cache TTL", async ({
    accountApi: call,
    loggedGateway: { gateway: logged },
    keyHolders: { alice },
  }) => {
    const created = await call("POST", "/api/v1/keys", as(alice.key), { name: "short-lived" });
    const { id, key } = created.body.data as { id: number; key: string };
    expect((await call("GET", "/api/v1/keys", as(key))).status).toBe(200);
    const deactivated = await call("POST", `/api/v1/keys/${id}/deactivate`, as(alice.key));
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.data).toMatchObject({ id, active: false });
    expect((deactivated.body.data as { deactivated_at: string }).deactivated_at).toMatch(/^\d{4}-/);
    expect(await call("GET", "/api/v1/keys", as(key))).toEqual({ status: 401, body: { message: INVALID_KEY_MESSAGE } });
    // Another replica learns it from the NOTIFY, or at the latest when its cached row expires.
    await expect
      .poll(() => call("GET", "/api/v1/keys", as(key), undefined, logged.url), { timeout: DEFAULT_KEY_CACHE_TTL_MS + 1_000 })
      .toEqual({ status: 401, body: { message: INVALID_KEY_MESSAGE } });
  });

  it("lets a key deactivate itself (its access ends with that answer)", async ({ accountApi: call, keyHolders: { bob } }) => {
    const { key, id } = (await call("POST", "/api/v1/keys", as(bob.key))).body.data as { id: number; key: string };
    const own = await call("POST", `/api/v1/keys/${id}/deactivate`, as(key));
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ current: true, active: false });
    expect((await call("GET", "/api/v1/keys", as(key))).status).toBe(401);
  });

  it("answers 404 {message} for another account's key and an unknown id, and changes nothing", async ({
    accountApi: call,
    keyHolders: { alice, bob },
  }) => {
    const bobsKeys = (await call("GET", "/api/v1/keys", as(bob.key))).body.data as Array<{ id: number }>;
    for (const id of [bobsKeys[0]!.id, 999_999]) {
      expect(await call("POST", `/api/v1/keys/${id}/deactivate`, as(alice.key))).toEqual({
        status: 404,
        body: { message: KEY_NOT_FOUND_MESSAGE },
      });
    }
    expect((await call("GET", "/api/v1/keys", as(bob.key))).status).toBe(200);
  });

  it("answers 401 in the spec's two messages", async ({ accountApi: call }) => {
    expect(await call("GET", "/api/v1/keys", {})).toEqual({ status: 401, body: { message: MISSING_KEY_MESSAGE } });
    expect(await call("POST", "/api/v1/keys", as("A".repeat(40)), {})).toEqual({ status: 401, body: { message: INVALID_KEY_MESSAGE } });
    expect(await call("GET", "/api/v1/usage", { authorization: "Bearer nope" })).toEqual({
      status: 401,
      body: { message: INVALID_KEY_MESSAGE },
    });
  });
});

describe("paging the key list", () => {
  it("pages by id with page/per_page and {current_page, per_page, total, last_page}; a page past the end is empty", async ({
    gateway,
    accountApi: call,
  }) => {
    const { key } = await createAccountWithKey(gateway.databaseUrl, "pager");
    for (let i = 0; i < 4; i++) expect((await call("POST", "/api/v1/keys", as(key), { name: `key ${i}` })).status).toBe(201);
    const page = async (query: string) => {
      const { status, body } = await call("GET", `/api/v1/keys${query}`, as(key));
      expect(status).toBe(200);
      return { names: (body.data as Array<{ name: string | null }>).map((k) => k.name), meta: body.meta };
    };
    expect(await page("")).toEqual({
      names: [null, "key 0", "key 1", "key 2", "key 3"],
      meta: { current_page: 1, per_page: 50, total: 5, last_page: 1 },
    });
    expect(await page("?per_page=2")).toEqual({ names: [null, "key 0"], meta: { current_page: 1, per_page: 2, total: 5, last_page: 3 } });
    expect(await page("?page=3&per_page=2")).toEqual({ names: ["key 3"], meta: { current_page: 3, per_page: 2, total: 5, last_page: 3 } });
    expect(await page("?page=4&per_page=2")).toEqual({ names: [], meta: { current_page: 4, per_page: 2, total: 5, last_page: 3 } });
  });

  it("refuses nonsense paging with 422 {message, errors}", async ({ accountApi: call, keyHolders: { alice } }) => {
    for (const [query, field, message] of [
      ["page=0", "page", "The page field must be at least 1."],
      ["page=9999999999999999", "page", "The page field must not be greater than 100000."],
      ["page=1.5", "page", "The page field must be an integer."],
      ["per_page=0", "per_page", "The per page field must be at least 1."],
      ["per_page=501", "per_page", "The per page field must not be greater than 500."],
      ["per_page=x", "per_page", "The per page field must be an integer."],
    ]) {
      expect(await call("GET", `/api/v1/keys?${query}`, as(alice.key))).toEqual({
        status: 422,
        body: { message, errors: { [field!]: [message] } },
      });
    }
  });
});

describe("usage", () => {
  it("counts the X-API-Key path per day and group, not the Bearer path", async ({ gateway, accountApi: call }) => {
    const { key } = await createAccountWithKey(gateway.databaseUrl, "usage");
    for (let i = 0; i < 3; i++) await call("GET", "/api/v1/keys", as(key));
    await call("GET", "/api/v1/keys", { authorization: `Bearer ${key}` });
    await gateway.flushUsage();
    const { status, body } = await call("GET", "/api/v1/usage?days=30", { authorization: `Bearer ${key}` });
    expect(status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(body.data).toEqual([{ day: today, endpoint_group: "account", request_count: 3 }]);
    expect(body.meta).toMatchObject({ to: today, days: 30 });
    const keys = (await call("GET", "/api/v1/keys", { authorization: `Bearer ${key}` })).body.data as Array<{ last_used_on: string }>;
    expect(keys[0]!.last_used_on).toBe(today);
  });

  it("refuses a bad window with 422", async ({ accountApi: call, keyHolders: { alice } }) => {
    for (const [query, message] of [
      ["days=0", "The days field must be at least 1."],
      ["days=91", "The days field must not be greater than 90."],
      ["days=x", "The days field must be an integer."],
    ]) {
      expect(await call("GET", `/api/v1/usage?${query}`, as(alice.key))).toEqual({
        status: 422,
        body: { message, errors: { days: [message] } },
      });
    }
  });
});

describe("operator paths", () => {
  const operator = { "x-operator-token": OPERATOR_TOKEN };

  it("answers 401 {message} without the right operator token (an API key is no operator token)", async ({
    accountApi: call,
    keyHolders: { alice },
  }) => {
    for (const headers of [{}, { "x-operator-token": "wrong" }, as(alice.key)] as Array<Record<string, string>>) {
      expect(await call("GET", "/api/v1/operator/accounts", headers)).toEqual({ status: 401, body: { message: OPERATOR_TOKEN_MESSAGE } });
    }
  });

  it("creates an account with its first key, lists accounts and keys, deactivates a key", async ({ accountApi: call, keyHolders }) => {
    void keyHolders; // alice and bob exist: the list below names them
    const created = await call("POST", "/api/v1/operator/accounts", operator, { name: "carol" });
    expect(created.status).toBe(201);
    const { account, key } = created.body.data as { account: { id: number; active_keys: number }; key: { id: number; key: string } };
    expect(account.active_keys).toBe(1);
    expect((await call("GET", "/api/v1/keys", as(key.key))).status).toBe(200);
    const accounts = (await call("GET", "/api/v1/operator/accounts", operator)).body.data as Array<{ name: string }>;
    expect(accounts.map((a) => a.name)).toEqual(expect.arrayContaining(["alice", "bob", "carol"]));
    const keys = await call("GET", `/api/v1/operator/accounts/${account.id}/keys`, operator);
    expect((keys.body.data as Array<{ id: number }>).map((k) => k.id)).toEqual([key.id]);
    expect((await call("POST", `/api/v1/operator/keys/${key.id}/deactivate`, operator)).body.data).toMatchObject({ active: false });
    expect((await call("GET", "/api/v1/keys", as(key.key))).status).toBe(401);
  });

  it("pages an account's keys as GET /api/v1/keys does, with bounded parameters", async ({ accountApi: call }) => {
    const created = await call("POST", "/api/v1/operator/accounts", operator, { name: "dave" });
    const { account, key } = created.body.data as { account: { id: number }; key: { id: number } };
    const second = (await call("POST", "/api/v1/keys", as((created.body.data as { key: { key: string } }).key.key), {})).body.data as {
      id: number;
    };
    const first = await call("GET", `/api/v1/operator/accounts/${account.id}/keys?per_page=1`, operator);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ data: [{ id: key.id }], meta: { current_page: 1, per_page: 1, total: 2, last_page: 2 } });
    const next = await call("GET", `/api/v1/operator/accounts/${account.id}/keys?page=2&per_page=1`, operator);
    expect((next.body.data as Array<{ id: number }>).map((k) => k.id)).toEqual([second.id]);
    expect(await call("GET", `/api/v1/operator/accounts/${account.id}/keys?page=9999999999999999`, operator)).toEqual({
      status: 422,
      body: {
        message: "The page field must not be greater than 100000.",
        errors: { page: ["The page field must not be greater than 100000."] },
      },
    });
  });

  it("pages the account list by id with a total, and bounds its parameters", async ({ accountApi: call }) => {
    const everyId: number[] = [];
    for (let page = 1; ; page++) {
      const answer = await call("GET", `/api/v1/operator/accounts?page=${page}&per_page=2`, operator);
      expect(answer.status).toBe(200);
      const { data, meta } = answer.body as unknown as { data: Array<{ id: number }>; meta: { total: number; last_page: number } };
      expect(data.length).toBeLessThanOrEqual(2);
      expect(meta).toMatchObject({ current_page: page, per_page: 2, last_page: Math.max(1, Math.ceil(meta.total / 2)) });
      everyId.push(...data.map((account) => account.id));
      if (page >= meta.last_page) {
        expect(everyId).toHaveLength(meta.total);
        break;
      }
    }
    expect(everyId).toEqual([...everyId].sort((a, b) => a - b));
    expect(new Set(everyId).size).toBe(everyId.length);
    const unpaged = await call("GET", "/api/v1/operator/accounts", operator);
    expect((unpaged.body.meta as { per_page: number }).per_page).toBe(50);
    expect(await call("GET", "/api/v1/operator/accounts?page=9999999999999999", operator)).toEqual({
      status: 422,
      body: {
        message: "The page field must not be greater than 100000.",
        errors: { page: ["The page field must not be greater than 100000."] },
      },
    });
    expect((await call("GET", "/api/v1/operator/accounts?per_page=501", operator)).status).toBe(422);
  });

  it("answers 404 and 422 in the spec's shapes", async ({ accountApi: call }) => {
    expect(await call("GET", "/api/v1/operator/accounts/999999/keys", operator)).toEqual({
      status: 404,
      body: { message: "No account with id 999999." },
    });
    expect(await call("POST", "/api/v1/operator/keys/999999/deactivate", operator)).toEqual({
      status: 404,
      body: { message: "No API key with id 999999." },
    });
    expect((await call("POST", "/api/v1/operator/accounts", operator, {})).body).toEqual({
      message: "The name field is required.",
      errors: { name: ["The name field is required."] },
    });
  });

  it("do not exist without CONSOLE_OPERATOR_TOKEN", async ({ accountApi: call, loggedGateway: { gateway: logged } }) => {
    expect((await call("GET", "/api/v1/operator/accounts", operator, undefined, logged.url)).status).toBe(404);
  });
});

it("writes no API key into the gateway's log lines for the account API's traffic", async ({
  gateway,
  accountApi: call,
  loggedGateway: { gateway: logged, lines: logLines },
}) => {
  const { key } = await createAccountWithKey(gateway.databaseUrl, "logs");
  await call("GET", "/api/v1/keys", as(key), undefined, logged.url);
  await call("GET", "/api/v1/usage", { authorization: `Bearer ${key}` }, undefined, logged.url);
  const created = await call("POST", "/api/v1/keys", as(key), { name: "logged" }, logged.url);
  const newKey = (created.body.data as { key: string }).key;
  await call("GET", "/api/v1/keys?nothing=here", as("B".repeat(40)), undefined, logged.url);
  const log = logLines.join("");
  expect(log).toContain("/api/v1/keys");
  for (const secret of [key, newKey, "B".repeat(40)]) expect(log).not.toContain(secret);
});
