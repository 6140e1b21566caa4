/**
 * Start, stop, start again, as a new user does: the dev stack (scripts/dev.ts, every service a
 * process, its own chains) runs as a process group beside anything else on the machine (its own
 * ports, data dir, database and NATS namespace); webhooks are registered on the three built-in
 * chains and on Polygon (an EVM chain the stack adds by EVM_CHAINS) through the gateway; the group
 * gets SIGINT (Ctrl-C); the stack starts again on the same data; each watched address is paid:
 * all four notifications reach the receiver. The Anvils and the simulator start fresh chains, so
 * the second start depends on the scanner following them anew.
 */
import { fileResource } from "@chaingate/testing/fixtures";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createAccountWithKey } from "@chaingate/gateway/testing";
import { DEV_LITECOIND_OPTIONS } from "@chaingate/testing";
import { createGenesis, type DevAccount } from "@chaingate/tron-devnode";
import { describe, expect } from "vitest";
// By path: the delivery's test receiver and the simulator's transaction signing.
import { startLocalReceiver, type LocalReceiver } from "@chaingate/delivery/testing";
import { signJson } from "@chaingate/tron-devnode/testing";
import { freshEvmAccountKey } from "@chaingate/xpub/testing";
import { DEV_BASE_PORTS, interruptDevStack, pollDevStack, spawnDevStack, type DevStackPlace } from "./dev-stack-process.ts";
import { waitUntilWatched, type ScannedCoin } from "./scanner-watch.ts";

/** The dev stack's chains the drill pays: the built-in three and Polygon (EVM_CHAINS). */
type DevCoin = ScannedCoin | "POLYGON";
import { drillTest } from "./testing/drill-fixtures.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 60_000;
const ARRIVAL_TIMEOUT_MS = 60_000;

/** The client's receiver on loopback, where the webhooks point. */
const test = drillTest.extend<{ devReceiver: LocalReceiver }>({
  devReceiver: fileResource(startLocalReceiver, (server) => server.close()),
});

/** What the drill does with the dev stack at `place`: its URLs, starting it, Ctrl-C, and calls to its chains. */
function devStackAt(place: DevStackPlace) {
  const port = (base: number) => base + place.offset;
  const url = (base: number) => `http://127.0.0.1:${port(base)}`;

  const poll = <T>(description: string, read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs: number) =>
    pollDevStack(place.stack, description, read, accept, timeoutMs);

  /** The scanner's follower state per chain, from its metrics. */
  async function followerStates(): Promise<Record<string, string>> {
    const text = await (await fetch(`${url(DEV_BASE_PORTS.scanner)}/metrics`)).text();
    return Object.fromEntries(
      [...text.matchAll(/^scanner_follower_state\{chain="(\w+)",state="(\w+)"\} 1$/gm)].map((match) => [match[1]!, match[2]!]),
    );
  }

  /** `scripts/dev.ts` in a process group of its own, as `bash scripts/dev.sh` runs it after the bootstrap. */
  async function startStack(): Promise<void> {
    place.stack = spawnDevStack(process.execPath, ["--import", "tsx", "scripts/dev.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...place.env(),
        WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
        LOG_LEVEL: "info",
      },
    });
    await poll(
      "the gateway",
      () => fetch(`${url(DEV_BASE_PORTS.gateway)}/readyz`).then((response) => response.status),
      (status) => status === 200,
      START_TIMEOUT_MS,
    );
    await poll(
      "the scanner following all five chains",
      followerStates,
      (states) => ["btc", "eth", "trx", "polygon", "bsc"].every((chain) => states[chain] === "following"),
      START_TIMEOUT_MS,
    );
  }

  /** Ctrl-C: SIGINT to the whole group, then every process of it gone. */
  async function interruptStack(): Promise<void> {
    expect(await interruptDevStack(place.stack!, STOP_TIMEOUT_MS)).toBe(true);
    place.stack = undefined;
  }

  async function bitcoinRpc<T>(method: string, params: unknown[] = []): Promise<T> {
    const response = await fetch(`${url(DEV_BASE_PORTS.litecoind)}/wallet/chaingate-regtest`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${DEV_LITECOIND_OPTIONS.rpcUser}:${DEV_LITECOIND_OPTIONS.rpcPassword}`).toString("base64")}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ jsonrpc: "1.0", id: 1, method, params }),
    });
    const { result, error } = (await response.json()) as { result: T; error: unknown };
    if (error) throw new Error(`${method}: ${JSON.stringify(error)}`);
    return result;
  }

  async function ethereumRpc<T>(method: string, params: unknown[] = [], base: number = DEV_BASE_PORTS.anvil): Promise<T> {
    const response = await fetch(url(base), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const { result, error } = (await response.json()) as { result: T; error: unknown };
    if (error) throw new Error(`${method}: ${JSON.stringify(error)}`);
    return result;
  }

  async function tronPost<T>(pathname: string, body: unknown): Promise<T> {
    const response = await fetch(`${url(DEV_BASE_PORTS.tron)}${pathname}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return (await response.json()) as T;
  }

  return { url, poll, startStack, interruptStack, bitcoinRpc, ethereumRpc, tronPost };
}

describe("the dev stack started, stopped with Ctrl-C and started again", () => {
  test("webhooks registered before the restart are notified on every chain after it, Polygon (EVM_CHAINS, an address of its xpub) too", async ({
    devStackPlace: place,
    devReceiver: receiver,
  }) => {
    const { url, poll, startStack, interruptStack, bitcoinRpc, ethereumRpc, tronPost } = devStackAt(place);
    await startStack();
    const { key } = await createAccountWithKey(place.database.connectionString, "dev restart");
    const [payer, payee] = createGenesis().accounts as [DevAccount, DevAccount];
    const addresses: Record<DevCoin, string> = {
      BTC: await bitcoinRpc<string>("getnewaddress"),
      ETH: `0x${randomBytes(20).toString("hex")}`,
      TRX: payee.base58,
      POLYGON: `0x${randomBytes(20).toString("hex")}`,
    };
    const gateway = async <T>(method: string, path: string, body?: unknown) => {
      const answer = await fetch(`${url(DEV_BASE_PORTS.gateway)}${path}`, {
        method,
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: answer.status, body: (await answer.json()) as T };
    };
    // The POLYGON deposit address is issued from a key registered for the chain (/api/v1/polygon/xpub)
    // and watched through the webhook's xpub_ids.
    const polygonKey = await gateway<{ id: number }>("POST", "/api/v1/polygon/xpub", { xpub: freshEvmAccountKey() });
    expect(polygonKey.status).toBe(201);
    const issued = await gateway<{ address_lowercase: string }>("POST", `/api/v1/polygon/xpub/${polygonKey.body.id}/address`);
    const keyIssued = issued.body.address_lowercase;
    const webhooks = new Map<DevCoin, number>();
    for (const coin of ["BTC", "ETH", "TRX", "POLYGON"] as const) {
      const xpubIds = coin === "POLYGON" ? [polygonKey.body.id] : [];
      const created = await gateway<{ data: { id: number } }>("POST", "/api/v1/webhooks", {
        coin,
        webhook_url: `${receiver.url}/deposits`,
        addresses: [addresses[coin]],
        xpub_ids: xpubIds,
      });
      expect(created.status).toBe(201);
      const id = created.body.data.id;
      await waitUntilWatched(place.database.connectionString, id);
      webhooks.set(coin, id);
    }
    await poll(
      "the POLYGON key's address watched",
      async () =>
        (await gateway<{ data: { addresses: string[] } }>("GET", `/api/v1/webhooks/${webhooks.get("POLYGON")}`)).body.data.addresses,
      (watched) => watched.includes(keyIssued),
      START_TIMEOUT_MS,
    );

    await interruptStack();
    await startStack();
    // The scanner followed the fresh dev chains anew, and said so. Tron's simulator starts with the
    // same genesis, so its reset comes from the follower (kept blocks unknown to the node), after the
    // chain was admitted and reported "following": wait for the line rather than read it once.
    for (const coin of ["ETH", "TRX", "POLYGON"]) {
      const reset = new RegExp(`${coin}: .*resetting to the node's tip \\(SCANNER_RESET_STALE_CHAINS, dev only\\)`);
      await poll(
        `the scanner's ${coin} reset line`,
        async () => place.stack!.output(),
        (output) => reset.test(output),
        START_TIMEOUT_MS,
      );
    }

    const miner = await bitcoinRpc<string>("getnewaddress");
    const btcTx = await bitcoinRpc<string>("sendtoaddress", [addresses.BTC, "0.5"]);
    await bitcoinRpc("generatetoaddress", [1, miner]);
    const [sender] = await ethereumRpc<string[]>("eth_accounts");
    const ethTx = await ethereumRpc<string>("eth_sendTransaction", [{ from: sender, to: addresses.ETH, value: "0xde0b6b3a7640000" }]);
    const unsigned = await tronPost<Record<string, unknown>>("/wallet/createtransaction", {
      owner_address: payer.base58,
      to_address: payee.base58,
      amount: 2_000_000,
      visible: true,
    });
    const trxTx = String(unsigned.txID);
    const polygonTx = await ethereumRpc<string>(
      "eth_sendTransaction",
      [{ from: sender, to: keyIssued, value: "0x2386f26fc10000" }],
      DEV_BASE_PORTS.polygon,
    );
    expect(
      await tronPost<{ result?: boolean }>("/wallet/broadcasttransaction", signJson(unsigned as never, payer.privateKey)),
    ).toMatchObject({ result: true });

    const notified = (coin: DevCoin) =>
      receiver.received
        .map((request) => JSON.parse(request.body) as { webhook_id: number; txid: string; type: string; currency: string; chain: string })
        .filter((body) => body.webhook_id === webhooks.get(coin));
    await poll(
      "a notification on each chain",
      async () => (["BTC", "ETH", "TRX", "POLYGON"] as const).map((coin) => notified(coin).length),
      (counts) => counts.every((count) => count >= 1),
      ARRIVAL_TIMEOUT_MS,
    );
    expect(notified("BTC")).toEqual([expect.objectContaining({ type: "transfer", txid: btcTx })]);
    expect(notified("ETH")).toEqual([expect.objectContaining({ type: "transfer", txid: ethTx })]);
    expect(notified("TRX")).toEqual([expect.objectContaining({ type: "transfer", txid: trxTx })]);
    // The extra EVM chain the dev stack adds by EVM_CHAINS, with its own coin, currency and chain id.
    expect(notified("POLYGON")).toEqual([
      expect.objectContaining({ type: "transfer", txid: polygonTx, coin: "POLYGON", currency: "POL", chain: "eip155:137" }),
    ]);
    await interruptStack();
  }, 420_000);
});
