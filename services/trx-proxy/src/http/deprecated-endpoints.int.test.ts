/**
 * The four deprecated endpoints (spec, Versioning 3) at the proxy's internal edge against the simulator:
 * their fields, exact conversions and 400 messages, the Deprecation/Sunset/Link headers, 410 from
 * the sunset instant (the clock injected), and no private key or mnemonic in any log line.
 */
import { Writable } from "node:stream";
import { createLogger } from "@chaingate/logger";
import { TronWeb } from "tronweb";
import { describe, expect } from "vitest";
import type { TrxStack } from "../testing/index.ts";
import { trxProxyTest } from "../testing/trx-proxy-fixtures.ts";

const SUNSET = new Date("2026-12-01T00:00:00Z");
const MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
let clock = new Date("2026-11-23T12:00:00Z");
const logLines: string[] = [];
/** Every secret a request of this file sent or received. */
const secrets = new Set<string>([MNEMONIC]);
const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    done();
  },
});
trxProxyTest.scoped({
  trxStackSettings: {
    logger: createLogger({ service: "trx-proxy", destination, level: "trace" }),
    env: { LOG_LEVEL: "trace" },
    dependencies: { now: () => clock },
  },
});
const it = trxProxyTest;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read several levels deep, as a client does
type Body = Record<string, any>;
/** The calls and genesis accounts of a test, over the file's stack. */
function deprecatedClient(stack: TrxStack) {
  const post = async (path: string, body: unknown) => {
    const response = await stack.post(`/api/v1/trx/account/${path}`, body);
    return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
  };
  const alice = () => stack.devnode.genesis.accounts[0]!;
  const bob = () => stack.devnode.genesis.accounts[1]!;
  const balances = async (address: string) => (await (await stack.request(`/api/v1/trx/account/${address}/balance`)).json()) as Body;
  const transaction = async (txid: string) => (await (await stack.request(`/api/v1/trx/transactions/${txid}`)).json()) as Body;
  return { post, alice, bob, balances, transaction };
}

describe("before the sunset: keys", () => {
  it("POST account/create returns a fresh key and its address, with the deprecation headers", async ({ trxStack: stack }) => {
    const { post } = deprecatedClient(stack);
    const { status, headers, body } = await post("create", {});
    expect(status).toBe(200);
    secrets.add(body.private_key as string);
    expect(TronWeb.address.fromPrivateKey(body.private_key as string)).toBe(body.address);
    expect(TronWeb.address.toHex(body.address as string)).toBe(body.hex_address);
    expect(headers.get("sunset")).toBe("Tue, 01 Dec 2026 00:00:00 GMT");
    expect(headers.get("deprecation")).toMatch(/^@\d+$/);
    expect(headers.get("link")).toContain('</api/v1/trx/transactions/create>; rel="successor-version"');
  });

  it("POST account/private-key derives m/44'/195'/0'/0/{index} as TronWeb does, and refuses a bad phrase", async ({ trxStack: stack }) => {
    const { post } = deprecatedClient(stack);
    for (const index of [0, 3]) {
      const { status, body } = await post("private-key", { mnemonic: MNEMONIC, index });
      const expected = TronWeb.fromMnemonic(MNEMONIC, `m/44'/195'/0'/0/${index}`) as { privateKey: string; address: string };
      expect(status).toBe(200);
      expect(body).toMatchObject({
        address: expected.address,
        private_key: expected.privateKey.replace(/^0x/, ""),
        path: `m/44'/195'/0'/0/${index}`,
      });
      secrets.add(body.private_key as string);
    }
    expect(await post("private-key", { mnemonic: MNEMONIC.replace("about", "abandon") })).toMatchObject({
      status: 400,
      body: { error: "Invalid mnemonic." },
    });
    expect(await post("private-key", {})).toMatchObject({ status: 400, body: { error: "The mnemonic field is required." } });
  });
});

describe("before the sunset: sends", () => {
  it("POST account/send moves 0.1 TRX as 100000 SUN, signed locally, and answers the spec's fields", async ({ trxStack: stack }) => {
    const { post, alice, bob, balances, transaction } = deprecatedClient(stack);
    secrets.add(alice().privateKey);
    const to = TronWeb.createRandom() as unknown as { address: string };
    const { status, headers, body } = await post("send", { private_key: alice().privateKey, to_address: to.address, amount: 0.1 });
    expect(status).toBe(200);
    expect(headers.get("sunset")).toBe("Tue, 01 Dec 2026 00:00:00 GMT");
    expect(body).toEqual({
      success: true,
      tx_id: expect.stringMatching(/^[0-9a-f]{64}$/),
      from_address: alice().base58,
      to_address: to.address,
      amount: 100_000,
      amount_trx: 0.1,
    });
    await stack.devnode.produceBlock();
    expect(await transaction(body.tx_id as string)).toMatchObject({ contractRet: "SUCCESS", confirmed: true });
    expect((await balances(to.address)).balance).toBe(100_000);
    // A decimal string works the same way.
    expect((await post("send", { private_key: alice().privateKey, to_address: bob().base58, amount: "1.000001" })).body).toMatchObject({
      amount: 1_000_001,
      amount_trx: 1.000001,
    });
  });

  it("POST account/send answers the spec's 400 messages", async ({ trxStack: stack }) => {
    const { post, alice, bob } = deprecatedClient(stack);
    const valid = { private_key: alice().privateKey, to_address: bob().base58, amount: "1" };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ to_address: bob().base58, amount: "1" }, "The private_key, to_address and amount fields are required."],
      [{ ...valid, amount: "" }, "The private_key, to_address and amount fields are required."],
      [{ ...valid, private_key: "12345" }, "Invalid private key format."],
      [{ ...valid, to_address: "TPLkz8rzTT7gKRS1bUm3hBcvw1EExAbKTW" }, "Invalid to_address."],
      [{ ...valid, amount: "-1" }, "Invalid amount."],
      [{ ...valid, amount: "0.0000001" }, "Invalid amount."],
    ];
    for (const [body, error] of cases) expect(await post("send", body), error).toMatchObject({ status: 400, body: { error } });
    // A key without funds: the node's refusal, prefixed.
    const poor = TronWeb.createRandom() as unknown as { privateKey: string };
    secrets.add(poor.privateKey.replace(/^0x/, ""));
    const refused = await post("send", { ...valid, private_key: poor.privateKey });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^Broadcast failed: .*(no OwnerAccount|balance is not sufficient)/);
  });

  it("POST account/send/usdt sends whole USDT with fee_limit 15 TRX by default (15000000 SUN upstream)", async ({ trxStack: stack }) => {
    const { post, bob, balances, transaction } = deprecatedClient(stack);
    secrets.add(bob().privateKey);
    const to = TronWeb.createRandom() as unknown as { address: string };
    const { status, body } = await post("send/usdt", { private_key: bob().privateKey, to_address: to.address, amount: 2.5 });
    expect(status).toBe(200);
    expect(body).toEqual({
      success: true,
      tx_id: expect.stringMatching(/^[0-9a-f]{64}$/),
      from_address: bob().base58,
      to_address: to.address,
      amount: 2.5,
      amount_trx: 2.5,
    });
    await stack.devnode.produceBlock();
    const sent = await transaction(body.tx_id as string);
    expect(sent.transaction.raw_data.fee_limit).toBe(15_000_000);
    expect(sent.contractRet).toBe("SUCCESS");
    expect((await balances(to.address)).trc20_tokens.USDT).toMatchObject({ balance_raw: "2500000", balance: "2.5" });
  });

  it("POST account/send/usdt: accepted is not executed (a 1 TRX fee_limit runs out of energy), and its 400s", async ({
    trxStack: stack,
  }) => {
    const { post, alice, bob, transaction } = deprecatedClient(stack);
    const accepted = await post("send/usdt", { private_key: bob().privateKey, to_address: alice().base58, amount: 1, fee_limit: 1 });
    expect(accepted.body.success).toBe(true);
    await stack.devnode.produceBlock();
    expect(await transaction(accepted.body.tx_id as string)).toMatchObject({
      contractRet: "OUT_OF_ENERGY",
      transaction: { raw_data: { fee_limit: 1_000_000 } },
    });
    expect(await post("send/usdt", { private_key: bob().privateKey, to_address: alice().base58 })).toMatchObject({
      status: 400,
      body: { error: "The private_key, to_address and amount fields are required." },
    });
    expect(await post("send/usdt", { private_key: bob().privateKey, to_address: alice().base58, amount: "lots" })).toMatchObject({
      status: 400,
      body: { error: "Invalid amount." },
    });
    expect(await post("send/usdt", { private_key: bob().privateKey, to_address: alice().base58, amount: 1, fee_limit: -2 })).toMatchObject({
      status: 400,
      body: { error: "Invalid fee_limit." },
    });
  });

  it("answers a node that is down with 500 {error}", async ({ trxStack: stack }) => {
    const { alice, bob } = deprecatedClient(stack);
    const down = await stack.startProxy({ TRON_NODE_URL: "http://127.0.0.1:1" }, { now: () => clock });
    const response = await down.request("/api/v1/trx/account/send", {
      method: "POST",
      body: JSON.stringify({ private_key: alice().privateKey, to_address: bob().base58, amount: 1 }),
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: "Could not connect to TRX node." });
  });
});

describe("from the sunset instant", () => {
  it("answers 410 naming the replacement, one millisecond before it still serves", async ({ trxStack: stack }) => {
    const { post, alice, bob } = deprecatedClient(stack);
    clock = new Date(SUNSET.getTime() - 1);
    expect((await post("create", {})).status).toBe(200);
    clock = SUNSET;
    for (const [path, replacement] of [
      ["create", /generate or derive keys locally/],
      ["private-key", /generate or derive keys locally/],
      ["send", /POST \/api\/v1\/trx\/transactions\/create, sign locally, then POST \/api\/v1\/trx\/transactions\/broadcast/],
      ["send/usdt", /transactions\/create/],
    ] as const) {
      const { status, headers, body } = await post(path, {
        private_key: alice().privateKey,
        to_address: bob().base58,
        amount: 1,
        mnemonic: MNEMONIC,
      });
      expect(status, path).toBe(410);
      expect(Object.keys(body)).toEqual(["error"]);
      expect(body.error).toMatch(replacement);
      expect(headers.get("sunset")).toBe("Tue, 01 Dec 2026 00:00:00 GMT");
    }
  });
});

describe("secrets", () => {
  it("never appear in a log line of the run", () => {
    // The run logged (requests, the node-down failure): the grep below has lines to search.
    expect(logLines.length).toBeGreaterThan(20);
    expect(logLines.some((line) => line.includes("dependency failure answered"))).toBe(true);
    expect(secrets.size).toBeGreaterThanOrEqual(6);
    for (const secret of secrets) {
      const words = secret.split(" ");
      for (const line of logLines) {
        expect(line.toLowerCase()).not.toContain(secret.toLowerCase().replace(/^0x/, ""));
        if (words.length > 1) expect(line).not.toContain(words.slice(0, 4).join(" "));
      }
    }
  });
});
