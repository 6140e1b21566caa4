/**
 * The three xpub endpoints at the service's internal edge (the account header and internal token
 * the gateway sends) over a real Postgres, with the BIP84 test-vector keys: statuses and bodies
 * exactly as the gateway passes them to a client.
 */
import { describe, expect } from "vitest";
import { INTERNAL_TOKEN_HEADER } from "@chaingate/http";
import { accountSequence, internalEdge, TEST_INTERNAL_TOKEN, type InternalEdge } from "@chaingate/testing";
import vectors from "../domain/fixtures/bip84-vectors.json" with { type: "json" };
import rejections from "../domain/fixtures/zpub-rejections.json" with { type: "json" };
import { startTestXpub } from "../testing/index.ts";
import { xpubTest } from "../testing/xpub-fixtures.ts";
import { freshAccountKey, sameNodeOtherText } from "../testing/same-node-other-text.ts";

const [ACCOUNT_0, ACCOUNT_1] = vectors.accounts;
const BIP84_RECEIVE = ACCOUNT_0!.addresses.filter((a) => a.chain === 0 && a.index < 2);
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const LIMIT = 2;

const newAccount = accountSequence();
const alice = newAccount();
const bob = newAccount();

interface Call {
  status: number;
  body: Record<string, unknown>;
}
type Account = { accountId: number };

/** The three endpoints as the gateway calls them; `at` another replica's edge. */
interface Api {
  call(method: "GET" | "POST", path: string, as: Account, body?: unknown, at?: InternalEdge): Promise<Call>;
  register(as: Account, body: unknown): Promise<Call>;
  issue(as: Account, id: unknown, at?: InternalEdge): Promise<Call>;
  history(as: Account, id: unknown, query?: string): Promise<Call>;
}

function apiAt(edge: InternalEdge): Api {
  const call: Api["call"] = async (method, path, as, body, at = edge) => {
    const response = await fetch(`${at.url}${path}`, {
      method,
      headers: {
        ...at.headersFor(as.accountId),
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return {
    call,
    register: (as, body) => call("POST", "/api/v1/btc/xpub", as, body),
    issue: (as, id, at) => call("POST", `/api/v1/btc/xpub/${id}/address`, as, undefined, at),
    history: (as, id, query = "") => call("GET", `/api/v1/btc/xpub/${id}/addresses${query}`, as),
  };
}

const it = xpubTest.extend<{
  api: Api;
  /** A replica over the same database with a tiny per-key limit. */
  limitedEdge: InternalEdge;
  /** Alice's record of BIP84 account 0, which the issue tests issue from. */
  issuingId: number;
  /** Alice's record of BIP84 account 1 with exactly 3 addresses issued. */
  historyKey: { id: number; issued: Array<{ address: string; index: number }> };
}>({
  api: async ({ edge }, use) => use(apiAt(edge)),
  limitedEdge: [
    async ({ database }, use) => {
      const limited = await startTestXpub(database.connectionString, {
        INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
        XPUB_MAX_ADDRESSES_PER_KEY: String(LIMIT),
      });
      try {
        await use(internalEdge(limited));
      } finally {
        await limited.close();
      }
    },
    { scope: "file" },
  ],
  issuingId: [
    async ({ edge }, use) => use((await apiAt(edge).register(alice, { xpub: ACCOUNT_0!.zpub })).body.id as number),
    { scope: "file" },
  ],
  historyKey: [
    async ({ edge }, use) => {
      const { register, issue } = apiAt(edge);
      const id = (await register(alice, { xpub: ACCOUNT_1!.zpub })).body.id as number;
      const issued = [];
      for (let i = 0; i < 3; i++) issued.push((await issue(alice, id)).body as { address: string; index: number });
      await use({ id, issued });
    },
    { scope: "file" },
  ],
});

const notFound = (id: unknown) => ({ message: `No xpub record with id ${id} was found.` });
const HELD =
  "This extended key cannot be registered: it is already registered. If it is yours, ask the operator to move it to your account.";

describe("POST /api/v1/btc/xpub", () => {
  it("registers an account zpub: 201 with the record, never the full key", async ({ api: { register } }) => {
    const { status, body } = await register(alice, { xpub: ACCOUNT_0!.zpub, label: "hot wallet" });
    expect(status).toBe(201);
    expect(body).toEqual({
      id: expect.any(Number),
      chain: "BTC",
      fingerprint: ACCOUNT_0!.fingerprint,
      label: "hot wallet",
      xpub_preview: ACCOUNT_0!.xpubPreview,
      next_index: 0,
      issued_count: 0,
      created_at: expect.stringMatching(ISO_DATE_TIME),
    });
    expect(JSON.stringify(body)).not.toContain(ACCOUNT_0!.zpub.slice(8, -4));
  });

  it("the same key again from the same account: 200 with the same record, original label kept", async ({ api: { register } }) => {
    const first = await register(alice, { xpub: ACCOUNT_0!.zpub, label: "hot wallet" });
    const again = await register(alice, { xpub: ACCOUNT_0!.zpub, label: "renamed" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.body.label).toBe("hot wallet");
  });

  it("the same key from another account: 409 naming the xpub field and the operator, neither the account holding it nor that one does", async ({
    api: { register },
  }) => {
    expect((await register(alice, { xpub: ACCOUNT_0!.zpub })).status).toBe(200);
    expect(await register(bob, { xpub: ACCOUNT_0!.zpub, label: "mine" })).toEqual({
      status: 409,
      body: { message: HELD, errors: { xpub: [HELD] } },
    });
  });

  it("the same node under another text (parent fingerprint changed, same addresses) is the same key: 201 for its holder's first text only", async ({
    api: { register },
  }) => {
    const key = freshAccountKey();
    const other = sameNodeOtherText(key);
    expect(other).not.toBe(key);
    const held = await register(alice, { xpub: key });
    expect(held.status).toBe(201);
    expect(await register(bob, { xpub: other })).toEqual({ status: 409, body: { message: HELD, errors: { xpub: [HELD] } } });
    // The holder's other text finds the holder's record, as the same text does.
    expect(await register(alice, { xpub: other })).toEqual({ status: 200, body: held.body });
  });

  it("two accounts registering one key at the same time, through two replicas: exactly one wins", async ({
    api: { call },
    edge,
    limitedEdge,
  }) => {
    const ROUNDS = 10;
    for (let round = 0; round < ROUNDS; round++) {
      const key = freshAccountKey();
      const answers = await Promise.all([
        call("POST", "/api/v1/btc/xpub", alice, { xpub: key }, edge),
        call("POST", "/api/v1/btc/xpub", bob, { xpub: sameNodeOtherText(key) }, limitedEdge),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    }
  });

  it("label is optional and may be null", async ({ api: { register } }) => {
    const { status, body } = await register(alice, { xpub: ACCOUNT_1!.zpub, label: null });
    expect(status).toBe(201);
    expect(body).toMatchObject({ label: null, xpub_preview: ACCOUNT_1!.xpubPreview, next_index: 0 });
  });

  it.for(rejections.cases.map((c) => [c.name, c] as const))(
    "refuses %s: 422 with the parser's reason under errors.xpub",
    async ([, rejection], { api: { register } }) => {
      const { status, body } = await register(alice, { xpub: rejection.input });
      expect(status).toBe(422);
      const errors = body.errors as Record<string, string[]>;
      expect(Object.keys(errors)).toEqual(["xpub"]);
      expect(errors.xpub).toHaveLength(1);
      for (const part of rejection.messageIncludes) expect(errors.xpub![0]).toContain(part);
      expect(body.message).toBe(errors.xpub![0]);
    },
  );

  it("422 when xpub is missing, not a string, or the label is too long", async ({ api: { register } }) => {
    expect(await register(alice, { label: "x" })).toEqual({
      status: 422,
      body: { message: "The xpub field is required.", errors: { xpub: ["The xpub field is required."] } },
    });
    const notString = await register(alice, { xpub: 42 });
    expect(notString.status).toBe(422);
    expect(Object.keys(notString.body.errors as object)).toEqual(["xpub"]);
    const longLabel = await register(alice, { xpub: ACCOUNT_0!.zpub, label: "x".repeat(256) });
    expect(longLabel).toEqual({
      status: 422,
      body: {
        message: "The label field must not be greater than 255 characters.",
        errors: { label: ["The label field must not be greater than 255 characters."] },
      },
    });
  });

  it("400 for a body that is not JSON", async ({ api: { register } }) => {
    const { status, body } = await register(alice, "{not json");
    expect(status).toBe(400);
    expect(body).toEqual({ message: "The request body is not valid JSON." });
  });
});

describe("POST /api/v1/btc/xpub/{id}/address", () => {
  it("issues the BIP84 receive addresses in order, 201 each, and the record counts them", async ({
    api: { register, issue },
    issuingId: id,
  }) => {
    for (const expected of BIP84_RECEIVE) {
      const { status, body } = await issue(alice, id);
      expect(status).toBe(201);
      expect(body).toEqual({ address: expected.mainnet, index: expected.index, path: expected.path });
    }
    const record = await register(alice, { xpub: ACCOUNT_0!.zpub });
    expect(record.body).toMatchObject({ next_index: 2, issued_count: 2 });
  });

  it("the path carries the key's own account number", async ({ api: { register, issue } }) => {
    const { body: record } = await register(bob, { xpub: freshAccountKey("m/84'/0'/7'") });
    const { body } = await issue(bob, record.id);
    expect(body).toEqual({ address: expect.stringMatching(/^bc1q/), index: 0, path: "m/84'/0'/7'/0/0" });
  });

  it("404 with one body for an unknown id and for another account's id", async ({ api: { issue }, issuingId: id }) => {
    expect(await issue(alice, 999_999)).toEqual({ status: 404, body: notFound(999_999) });
    expect(await issue(bob, id)).toEqual({ status: 404, body: notFound(id) });
    expect(await issue(alice, "0")).toEqual({ status: 404, body: notFound(0) });
  });

  it("a non-numeric id is a routing miss (404), not a validation error", async ({ api: { issue } }) => {
    expect(await issue(alice, "abc")).toEqual({
      status: 404,
      body: { message: "The route api/v1/btc/xpub/abc/address could not be found." },
    });
  });

  it(`422 once the per-key limit (${LIMIT} on this replica) is reached, and nothing is issued`, async ({
    api: { register, issue },
    limitedEdge,
  }) => {
    const bobsKey = freshAccountKey();
    const { body: record } = await register(bob, { xpub: bobsKey });
    const issued = [await issue(bob, record.id, limitedEdge), await issue(bob, record.id, limitedEdge)];
    expect(issued.map((r) => r.status)).toEqual([201, 201]);
    const message = `This key has issued its limit of ${LIMIT} addresses; register another account key to issue more.`;
    expect(await issue(bob, record.id, limitedEdge)).toEqual({ status: 422, body: { message, errors: { id: [message] } } });
    expect((await register(bob, { xpub: bobsKey })).body).toMatchObject({ next_index: LIMIT, issued_count: LIMIT });
  });
});

describe("GET /api/v1/btc/xpub/{id}/addresses", () => {
  it("defaults: page 1 of 50, ordered by index, with created_at and without path", async ({
    api: { history },
    historyKey: { id, issued },
  }) => {
    const { status, body } = await history(alice, id);
    expect(status).toBe(200);
    expect(body).toEqual({
      data: issued.map(({ address, index }) => ({ address, index, created_at: expect.stringMatching(ISO_DATE_TIME) })),
      meta: { current_page: 1, per_page: 50, total: 3, last_page: 1 },
    });
    expect(issued[0]!.address).toBe(ACCOUNT_1!.addresses[0]!.mainnet);
  });

  it("pages start at 1; the last page holds the rest; a page past the last is empty with real meta", async ({
    api: { history },
    historyKey: { id },
  }) => {
    const page1 = await history(alice, id, "?page=1&per_page=2");
    expect((page1.body.data as Array<{ index: number }>).map((a) => a.index)).toEqual([0, 1]);
    expect(page1.body.meta).toEqual({ current_page: 1, per_page: 2, total: 3, last_page: 2 });
    const page2 = await history(alice, id, "?page=2&per_page=2");
    expect((page2.body.data as Array<{ index: number }>).map((a) => a.index)).toEqual([2]);
    expect(await history(alice, id, "?page=7&per_page=2")).toEqual({
      status: 200,
      body: { data: [], meta: { current_page: 7, per_page: 2, total: 3, last_page: 2 } },
    });
    expect((await history(alice, id, "?page=10000000&per_page=500")).body).toEqual({
      data: [],
      meta: { current_page: 10_000_000, per_page: 500, total: 3, last_page: 1 },
    });
  });

  it("a key with nothing issued has total 0 and last_page 1", async ({ api: { register, history } }) => {
    const carol = newAccount();
    const { body: fresh } = await register(carol, { xpub: freshAccountKey() });
    expect(await history(carol, fresh.id)).toEqual({
      status: 200,
      body: { data: [], meta: { current_page: 1, per_page: 50, total: 0, last_page: 1 } },
    });
  });

  it.for<[string, string, string]>([
    ["?page=0", "page", "The page field must be at least 1."],
    ["?page=-2", "page", "The page field must be at least 1."],
    ["?page=abc", "page", "The page field must be an integer."],
    ["?page=1.5", "page", "The page field must be an integer."],
    ["?per_page=0", "per_page", "The per page field must be at least 1."],
    ["?per_page=501", "per_page", "The per page field must not be greater than 500."],
    ["?per_page=ten", "per_page", "The per page field must be an integer."],
    // Past the exact integers an OFFSET overflows: bounded, as on every paged answer.
    ["?page=9999999999999999", "page", "The page field must not be greater than 10000000."],
  ])("%s: 422 naming the parameter", async ([query, field, message], { api: { history }, historyKey: { id } }) => {
    expect(await history(alice, id, query)).toEqual({ status: 422, body: { message, errors: { [field]: [message] } } });
  });

  it("per_page 500 is allowed", async ({ api: { history }, historyKey: { id } }) => {
    expect((await history(alice, id, "?per_page=500")).body.meta).toEqual({ current_page: 1, per_page: 500, total: 3, last_page: 1 });
  });

  it("404 with one body for an unknown id and for another account's id; non-numeric id is a routing miss", async ({
    api: { history },
    historyKey: { id },
  }) => {
    expect(await history(bob, id)).toEqual({ status: 404, body: notFound(id) });
    expect(await history(alice, 424_242)).toEqual({ status: 404, body: notFound(424_242) });
    expect(await history(alice, "x1")).toEqual({
      status: 404,
      body: { message: "The route api/v1/btc/xpub/x1/addresses could not be found." },
    });
  });
});

describe("GET /api/v1/btc/xpub", () => {
  it("lists the caller's own records of the chain by id, paged, never another account's or the full key", async ({
    api: { call, register },
  }) => {
    const carol = newAccount();
    const keys = [freshAccountKey(), freshAccountKey(), freshAccountKey()];
    const ids: number[] = [];
    for (const [i, key] of keys.entries()) ids.push(((await register(carol, { xpub: key, label: `k${i}` })).body as { id: number }).id);
    await register(alice, { xpub: freshAccountKey() });
    const first = await call("GET", "/api/v1/btc/xpub?per_page=2", carol);
    expect(first.status).toBe(200);
    expect((first.body.data as Array<{ id: number; label: string }>).map((r) => [r.id, r.label])).toEqual([
      [ids[0], "k0"],
      [ids[1], "k1"],
    ]);
    expect(first.body.meta).toEqual({ current_page: 1, per_page: 2, total: 3, last_page: 2 });
    const second = await call("GET", "/api/v1/btc/xpub?page=2&per_page=2", carol);
    expect((second.body.data as Array<{ id: number }>).map((r) => r.id)).toEqual([ids[2]]);
    expect(JSON.stringify([first.body, second.body])).not.toContain(keys[0]!.slice(12, 40));
    // The ETH path holds only ETH records.
    expect((await call("GET", "/api/v1/eth/xpub", carol)).body).toMatchObject({ data: [], meta: { total: 0, last_page: 1 } });
  });

  it("422 for a page number past the bound (an OFFSET that would overflow)", async ({ api: { call } }) => {
    expect(await call("GET", "/api/v1/btc/xpub?page=9999999999999999", alice)).toEqual({
      status: 422,
      body: {
        message: "The page field must not be greater than 10000000.",
        errors: { page: ["The page field must not be greater than 10000000."] },
      },
    });
  });

  it("422 for a bad page size", async ({ api: { call } }) => {
    expect(await call("GET", "/api/v1/btc/xpub?per_page=501", alice)).toEqual({
      status: 422,
      body: {
        message: "The per page field must not be greater than 500.",
        errors: { per_page: ["The per page field must not be greater than 500."] },
      },
    });
  });
});

describe("without the gateway's headers", () => {
  it("a request without the account header is refused (401)", async ({ xpub }) => {
    const response = await fetch(`${xpub.url}/api/v1/btc/xpub/1/addresses`, { headers: { [INTERNAL_TOKEN_HEADER]: TEST_INTERNAL_TOKEN } });
    expect(response.status).toBe(401);
  });
});
