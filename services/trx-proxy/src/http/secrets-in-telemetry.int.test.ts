/**
 * Private keys and mnemonics sent to the deprecated endpoints never leave the request: the
 * trx-proxy runs as a real process (its start script, telemetry preloaded, logging at trace) with
 * its spans exported to a local OTLP receiver; every byte it logs and every span it exports is
 * searched for the secrets. Called at its internal edge, as the gateway calls it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { internalEdge, startServiceProcess, TEST_INTERNAL_TOKEN, type InternalEdge, type ServiceProcess } from "@chaingate/testing";
import { TronWeb } from "tronweb";
import { expect } from "vitest";
import { trxProxyTest } from "../testing/trx-proxy-fixtures.ts";

const SERVICE_DIR = fileURLToPath(new URL("../../", import.meta.url));
const MNEMONIC = "legal winner thank year wave sausage worth useful legal winner thank yellow";

/** The account the gateway would have authenticated. */
const ACCOUNT_ID = 1;

const it = trxProxyTest.extend<{
  spanReceiver: { url: string; exported: string[] };
  telemetryTrxProxy: { proxy: ServiceProcess; edge: InternalEdge };
}>({
  /** A local OTLP receiver: the bodies of the span exports it was sent. */
  spanReceiver: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads what a fixture needs from this pattern
    async ({}, use) => {
      const exported: string[] = [];
      const receiver = http.createServer((request, response) => {
        let body = "";
        request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        request.on("end", () => {
          exported.push(body);
          response.writeHead(200, { "content-type": "application/json" }).end("{}");
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
      try {
        await use({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`, exported });
      } finally {
        await new Promise((resolve) => receiver.close(resolve));
      }
    },
    { scope: "file" },
  ],
  /** The trx-proxy as a process (its start script), over the file's simulator, exporting its spans to the receiver. */
  telemetryTrxProxy: [
    async ({ tronDevnode, spanReceiver }, use) => {
      const proxy = await startServiceProcess(SERVICE_DIR, {
        TRON_NODE_URL: tronDevnode.url,
        LOG_LEVEL: "trace",
        OTEL_EXPORTER_OTLP_ENDPOINT: spanReceiver.url,
        OTEL_BSP_SCHEDULE_DELAY: "100",
        INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
      });
      try {
        await use({ proxy, edge: internalEdge(proxy) });
      } finally {
        await proxy.stop();
      }
    },
    { scope: "file" },
  ],
});
/** The process's start (up to a minute) and the test's own minute. */
const TEST_TIMEOUT_MS = 150_000;

it(
  "keeps keys and mnemonics out of the process's output and its exported spans",
  { timeout: TEST_TIMEOUT_MS },
  async ({ tronDevnode: devnode, telemetryTrxProxy: { proxy, edge }, spanReceiver: { exported } }) => {
    const post = (path: string, body: unknown) =>
      edge.request(ACCOUNT_ID, `/api/v1/trx/account/${path}`, { method: "POST", body: JSON.stringify(body) });
    const [alice, bob] = devnode.genesis.accounts;
    const created = (await (await post("create", {})).json()) as { private_key: string };
    const derived = (await (await post("private-key", { mnemonic: MNEMONIC, index: 2 })).json()) as { private_key: string };
    const sent = await post("send", { private_key: alice!.privateKey, to_address: bob!.base58, amount: "0.5" });
    expect(sent.status).toBe(200);
    const usdt = await post("send/usdt", { private_key: bob!.privateKey, to_address: alice!.base58, amount: 1 });
    expect(usdt.status).toBe(200);
    // Refusals too: a malformed key, a key without funds.
    expect((await post("send", { private_key: `${alice!.privateKey}00`, to_address: bob!.base58, amount: 1 })).status).toBe(400);
    const poor = (TronWeb.createRandom() as unknown as { privateKey: string }).privateKey.replace(/^0x/, "");
    expect((await post("send", { private_key: poor, to_address: bob!.base58, amount: 1 })).status).toBe(400);

    // The spans of these requests were exported, and the process logged them.
    await expect.poll(() => exported.join("").includes("/api/v1/trx/account/send/usdt"), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => proxy.output().includes("/api/v1/trx/account/send/usdt"), { timeout: 5_000 }).toBe(true);
    const everything = `${proxy.output()}\n${exported.join("\n")}`.toLowerCase();
    for (const secret of [
      created.private_key,
      derived.private_key,
      alice!.privateKey,
      bob!.privateKey,
      poor,
      MNEMONIC,
      MNEMONIC.split(" ").slice(0, 3).join(" "),
    ]) {
      expect(secret.length).toBeGreaterThan(10);
      expect(everything.includes(secret.toLowerCase())).toBe(false);
    }
  },
);
