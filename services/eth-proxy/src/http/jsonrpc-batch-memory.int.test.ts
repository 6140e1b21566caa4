/**
 * POST /api/v1/eth/jsonrpc: the memory a batch costs the proxy is bounded whatever its answers
 * weigh. Against Anvil, through a recording relay that counts what the proxy asks of the node: a
 * batch of 1,000 `eth_call`s each answering 64 KiB (a state override puts code returning 64 KiB at
 * the called address), about 130 MB of answer sent to the node in 10 chunks of ETH_RPC_MAX_BATCH
 * (100). The relay writes each answer at about 12 MB/s, as a remote node would, so a chunk's answer is
 * under way for about a second. A client that stops reading holds the proxy to NODE_CHUNKS_IN_FLIGHT
 * chunks requested; a client that leaves cancels the node calls under way.
 */
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { NODE_CHUNKS_IN_FLIGHT } from "@chaingate/chain-proxy";
import { loadConfig } from "@chaingate/config";
import { internalEdge, silentLogger, TEST_INTERNAL_TOKEN } from "@chaingate/testing";
import { expect } from "vitest";
import { ethProxyConfigSchema } from "../config.ts";
import { createEthProxy, type EthProxy } from "../create-eth-proxy.ts";
import { ethProxyTest } from "../testing/eth-proxy-fixtures.ts";
import { startRecordingRelay, type RecordingRelay } from "../testing/index.ts";

const CALLS = 1_000;
const CALLS_PER_CHUNK = 100;
const CHUNKS = CALLS / CALLS_PER_CHUNK;
const RESULT_BYTES = 64 * 1024;
/** Where the state override puts the code: an address with nothing of its own. */
const CALLED = "0x00000000000000000000000000000000c0de6400";
/** PUSH3 65536, PUSH1 0, RETURN: returns 64 KiB of (zeroed) memory. */
const RETURNS_64_KIB = `0x62${RESULT_BYTES.toString(16).padStart(6, "0")}6000f3`;
/** 128 KiB every 10 ms: a chunk's 13 MB answer takes about a second to arrive. */
const ANSWER_PACE = { bytes: 128 * 1024, everyMs: 10 };
/** Long enough for a proxy that reads ahead of its client to ask for the next chunks (Anvil and the relay answer one in about 1.5 s). */
const SETTLE_MS = 3_000;
const ACCOUNT_ID = 1;

/** The proxy under test, its relay to the node, and the headers the gateway adds for ACCOUNT_ID. */
interface PacedProxy {
  relay: RecordingRelay;
  proxy: EthProxy;
  headers: Record<string, string>;
}

const it = ethProxyTest.extend<{ pacedProxy: PacedProxy }>({
  pacedProxy: [
    async ({ anvil }, use) => {
      const relay = await startRecordingRelay(anvil.url, { answerPace: ANSWER_PACE });
      let proxy: EthProxy | undefined;
      try {
        proxy = await createEthProxy(
          loadConfig("eth-proxy", ethProxyConfigSchema, {
            PORT: "0",
            ETH_RPC_URL: relay.url,
            ETH_RPC_MAX_BATCH: String(CALLS_PER_CHUNK),
            INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
          }),
          silentLogger,
        );
        await use({ relay, proxy, headers: internalEdge(proxy).headersFor(ACCOUNT_ID) });
      } finally {
        await proxy?.close();
        await relay.close();
      }
    },
    { scope: "file" },
  ],
});

const batch = JSON.stringify(
  Array.from({ length: CALLS }, (_, id) => ({
    jsonrpc: "2.0",
    id,
    method: "eth_call",
    params: [{ to: CALLED }, "latest", { [CALLED]: { code: RETURNS_64_KIB } }],
  })),
);

/** POSTs the batch; resolves with the response once its status line is in, unread. */
function postBatch({ proxy, headers }: PacedProxy): Promise<{ request: http.ClientRequest; response: http.IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${proxy.url}/api/v1/eth/jsonrpc`, {
      method: "POST",
      agent: false,
      headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(batch) },
    });
    request.on("error", reject);
    request.on("response", (response) => resolve({ request, response }));
    request.end(batch);
  });
}

/** The chunks the proxy has asked the node for since `from`, once it has asked for no more for SETTLE_MS. */
async function chunksRequestedSince(relay: RecordingRelay, from: number): Promise<number> {
  let seen = -1;
  while (relay.bodies().length !== seen) {
    seen = relay.bodies().length;
    await sleep(SETTLE_MS);
  }
  return seen - from;
}

it(`asks the node for at most ${NODE_CHUNKS_IN_FLIGHT} chunks of a 130 MB batch while its client reads nothing, then answers it whole in request order`, async ({
  pacedProxy,
}) => {
  const { relay } = pacedProxy;
  const from = relay.bodies().length;
  const { response } = await postBatch(pacedProxy);
  expect(response.statusCode).toBe(200);
  expect(await chunksRequestedSince(relay, from)).toBeLessThanOrEqual(NODE_CHUNKS_IN_FLIGHT);

  const pieces: Buffer[] = [];
  for await (const piece of response) pieces.push(piece as Buffer);
  const answers = JSON.parse(Buffer.concat(pieces).toString("utf8")) as { id: number; result: string }[];
  expect(answers.map((answer) => answer.id)).toEqual(Array.from({ length: CALLS }, (_, id) => id));
  expect(answers.every((answer) => answer.result === `0x${"00".repeat(RESULT_BYTES)}`)).toBe(true);
  expect(relay.bodies().length - from).toBe(CHUNKS);
});

it("cancels the node calls under way and asks for no more when its client leaves mid-batch, and stays in service", async ({
  pacedProxy,
}) => {
  const { relay, proxy, headers } = pacedProxy;
  const from = relay.bodies().length;
  const cutBefore = relay.answersCut();
  const { request, response } = await postBatch(pacedProxy);
  expect(response.statusCode).toBe(200);
  // Mid-batch: the answer has started, no chunk has arrived whole.
  const first = await new Promise<Buffer>((resolve) => response.once("data", resolve));
  expect(first.toString("utf8")).toMatch(/^\[/);
  const underWay = relay.bodies().length - from;
  request.destroy();

  expect(await chunksRequestedSince(relay, from)).toBe(underWay);
  expect(relay.answersCut() - cutBefore).toBe(underWay);
  const after = await fetch(`${proxy.url}/api/v1/eth/jsonrpc`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
  });
  expect(await after.json()).toEqual({ jsonrpc: "2.0", id: 1, result: "0x7a69" });
});
