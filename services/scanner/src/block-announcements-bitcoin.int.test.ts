/**
 * Bitcoin block announcements against a real litecoind regtest node: `-blocknotify` calling curl
 * against the scanner's internal endpoint (litecoind here is built without ZMQ), and bitcoind's ZMQ
 * wire format from a zeromq publisher the test drives after each block it mines. With the poll
 * interval at 30 s, only an announcement can explain a block processed within seconds.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort, silentLogger, startLitecoindRegtest, type LitecoindRegtest } from "@chaingate/testing";
import { scannerConfigSchema } from "./config.ts";
import { createScannerService, type ScannerService } from "./create-scanner-service.ts";
import { Publisher } from "zeromq";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  readyzOf,
  scrapeMetrics,
  startScannerUnderTest,
  stopScannerUnderTest,
  waitForFirstBlock,
  waitUntil,
  type EventRecorder,
  type ScannerUnderTest,
} from "./testing/scanner-harness.ts";

const LONG_POLL_MS = 30_000;
/** Well under the poll interval, with room for a loaded CI machine. */
const PUSH_DEADLINE_MS = 5_000;

const processed = (recorder: EventRecorder, hash: string) => () => recorder.blocks.some((block) => block.hash === hash);

describe("-blocknotify → POST /internal/chains/btc/block-announced (real litecoind)", () => {
  let node: LitecoindRegtest;
  let under: ScannerUnderTest;
  let dir: string;
  const token = randomBytes(24).toString("hex");

  beforeAll(async () => {
    const port = await freePort();
    dir = await mkdtemp(path.join(os.tmpdir(), "chaingate-blocknotify-"));
    // The documented set-up: the token in a header file, not on the node's command line (ps).
    const headerFile = path.join(dir, "scanner-token.header");
    await writeFile(headerFile, `x-chaingate-internal-token: ${token}\n`, { mode: 0o600 });
    node = await startLitecoindRegtest({
      extraArgs: [
        `-blocknotify=curl -fsS -m 5 -X POST -H @${headerFile} http://127.0.0.1:${port}/internal/chains/btc/block-announced?hash=%s`,
      ],
    });
    await node.mine(101);
    under = await startScannerUnderTest({
      PORT: String(port),
      INTERNAL_TOKEN: token,
      BTC_RPC_URL: node.rpcUrl,
      BTC_RPC_USER: node.rpcUser,
      BTC_RPC_PASSWORD: node.rpcPassword,
      SCANNER_POLL_INTERVAL_MS: String(LONG_POLL_MS),
    });
    await waitForFirstBlock(under.recorder, () => node.mine(1));
  });

  afterAll(async () => {
    await stopScannerUnderTest(under);
    await node?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test("a mined block is processed within seconds though the poll interval is 30 s", async () => {
    const counted = async () =>
      Number(
        /scanner_block_announcements_total\{chain="btc",channel="blocknotify"\} (\d+)/.exec(await scrapeMetrics(under.scanner))?.[1] ?? 0,
      );
    const before = await counted();
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const [hash] = await node.mine(1);
      await under.recorder.waitFor(`block ${hash} processed`, processed(under.recorder, hash!), PUSH_DEADLINE_MS);
      expect(Date.now() - started).toBeLessThan(PUSH_DEADLINE_MS);
    }
    // One per block: the replica skips its own copy relayed over NATS.
    await waitUntil("the last call counted", async () => (await counted()) - before >= 3);
    expect((await counted()) - before).toBe(3);
  });

  test("a reorg announced by push is handled as a reorg (rewound by parent hash, not skipped)", async () => {
    const [orphaned] = await node.mine(1);
    await under.recorder.waitFor("the block to be orphaned", processed(under.recorder, orphaned!), PUSH_DEADLINE_MS);
    await node.rpc("invalidateblock", [orphaned]);
    const [first, second] = await node.mine(2, await node.walletRpc<string>("getnewaddress"));
    await under.recorder.waitFor("the competing branch", processed(under.recorder, second!), PUSH_DEADLINE_MS);
    const orphanedHeight = under.recorder.blocks.find((block) => block.hash === orphaned)!.height;
    expect(under.recorder.blocks.find((block) => block.hash === first)).toMatchObject({ height: orphanedHeight });
    expect(await scrapeMetrics(under.scanner)).toMatch(/scanner_reorgs_total\{chain="btc"\} 1\n/);
  });

  test("the endpoint wants the internal token, and names chains the scanner does not follow", async () => {
    const url = `${under.scanner.url}/internal/chains/btc/block-announced`;
    expect((await fetch(url, { method: "POST" })).status).toBe(401);
    const headers = { "x-chaingate-internal-token": token };
    expect((await fetch(url, { method: "POST", headers })).status).toBe(202);
    const eth = await fetch(`${under.scanner.url}/internal/chains/eth/block-announced`, { method: "POST", headers });
    expect([eth.status, await eth.json()]).toEqual([404, { message: "This scanner does not follow ETH." }]);
  });
});

describe("several replicas: the announcement reaches the lease holder wherever it lands", () => {
  let node: LitecoindRegtest;
  let holder: ScannerUnderTest;
  let standby: ScannerService | undefined;

  beforeAll(async () => {
    node = await startLitecoindRegtest();
    await node.mine(101);
    const env = {
      BTC_RPC_URL: node.rpcUrl,
      BTC_RPC_USER: node.rpcUser,
      BTC_RPC_PASSWORD: node.rpcPassword,
      SCANNER_POLL_INTERVAL_MS: String(LONG_POLL_MS),
    };
    holder = await startScannerUnderTest(env);
    await waitForFirstBlock(holder.recorder, () => fetch(`${holder.scanner.url}/internal/chains/btc/block-announced`, { method: "POST" }));
    // A second replica over the same database and bus: it stands by for BTC.
    const config = scannerConfigSchema.parse({
      PORT: "0",
      DATABASE_URL: holder.database.connectionString,
      NATS_URL: process.env.NATS_URL,
      NATS_NAMESPACE: holder.recorder.namespace,
      ...env,
    });
    standby = await createScannerService(config, silentLogger);
  });

  afterAll(async () => {
    await standby?.close();
    await stopScannerUnderTest(holder);
    await node?.stop();
  });

  test("-blocknotify calling a standby wakes the holder over NATS", async () => {
    expect([holder.scanner.following(), standby!.following()]).toEqual([["BTC"], []]);
    for (let i = 0; i < 2; i++) {
      const [hash] = await node.mine(1);
      const answer = await fetch(`${standby!.url}/internal/chains/btc/block-announced`, { method: "POST" });
      expect(answer.status).toBe(202);
      await holder.recorder.waitFor(`block ${hash} processed by the holder`, processed(holder.recorder, hash!), PUSH_DEADLINE_MS);
    }
  });
});

describe("ZMQ hashblock (bitcoind's wire format from a zeromq publisher; blocks from real litecoind)", () => {
  let node: LitecoindRegtest;
  let zmqUrl: string;
  let publisher: Publisher | undefined;
  let sequence = 0;

  /** What bitcoind sends after connecting a block (doc/zmq.md): topic, 32-byte hash, LE uint32 sequence. */
  async function announce(hash: string) {
    const number = Buffer.alloc(4);
    number.writeUInt32LE(sequence++);
    await publisher!.send(["hashblock", Buffer.from(hash, "hex"), number]);
  }
  async function bindPublisher() {
    publisher = new Publisher();
    await publisher.bind(zmqUrl);
  }
  /**
   * A SUB socket's subscription reaches the publisher a moment after it connects (ZMQ's "slow
   * joiner"): announce the current tip until the scanner counts one more announcement.
   */
  async function untilHeard(scanner: ScannerService) {
    const count = async () =>
      Number(/scanner_block_announcements_total\{chain="btc",channel="zmq [^"]*"\} (\d+)/.exec(await scrapeMetrics(scanner))?.[1] ?? 0);
    const before = await count();
    const tip = await node.rpc<string>("getbestblockhash");
    await waitUntil("the scanner to hear an announcement", async () => {
      await announce(tip);
      return (await count()) > before;
    });
  }
  /** Mines a block and announces it, as a ZMQ-enabled bitcoind would. */
  async function mineAnnounced() {
    const [hash] = await node.mine(1);
    await announce(hash!);
    return hash!;
  }

  beforeAll(async () => {
    node = await startLitecoindRegtest();
    await node.mine(101);
    zmqUrl = `tcp://127.0.0.1:${await freePort()}`;
    await bindPublisher();
  });

  afterAll(async () => {
    publisher?.close();
    await node?.stop();
  });

  test("each announced block is processed within seconds though the poll interval is 30 s", async () => {
    const under = await startScannerUnderTest({
      BTC_RPC_URL: node.rpcUrl,
      BTC_RPC_USER: node.rpcUser,
      BTC_RPC_PASSWORD: node.rpcPassword,
      BTC_ZMQ_URL: zmqUrl,
      SCANNER_POLL_INTERVAL_MS: String(LONG_POLL_MS),
    });
    try {
      await waitForFirstBlock(under.recorder, async () => announce(await node.rpc<string>("getbestblockhash")));
      await untilHeard(under.scanner);
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const hash = await mineAnnounced();
        await under.recorder.waitFor(`block ${hash} processed`, processed(under.recorder, hash), PUSH_DEADLINE_MS);
        expect(Date.now() - started).toBeLessThan(PUSH_DEADLINE_MS);
      }
      expect(await scrapeMetrics(under.scanner)).toMatch(
        new RegExp(`scanner_push_channel_up\\{chain="btc",channel="zmq ${zmqUrl}"\\} 1\\n`),
      );
    } finally {
      await stopScannerUnderTest(under);
    }
  });

  test("with the publisher gone the follower polls (readyz degraded, not failed); when it is back, push resumes", async () => {
    const pollMs = 2_000;
    const under = await startScannerUnderTest({
      BTC_RPC_URL: node.rpcUrl,
      BTC_RPC_USER: node.rpcUser,
      BTC_RPC_PASSWORD: node.rpcPassword,
      BTC_ZMQ_URL: zmqUrl,
      SCANNER_POLL_INTERVAL_MS: String(pollMs),
    });
    try {
      await waitForFirstBlock(under.recorder, async () => announce(await node.rpc<string>("getbestblockhash")));
      await untilHeard(under.scanner);
      publisher!.close();
      await waitUntil(
        "readyz to name the lost channel",
        async () => (await readyzOf(under.scanner)).degraded?.blockAnnouncements !== undefined,
      );
      const status = await readyzOf(under.scanner);
      expect(status.status).toBe("ready");
      expect(status.degraded?.blockAnnouncements).toBe(`block announcement channels down (polling meanwhile): BTC zmq ${zmqUrl}`);

      // Nothing announces this block: the poll still finds it.
      const [hash] = await node.mine(1);
      await under.recorder.waitFor(`block ${hash} processed by polling`, processed(under.recorder, hash!), pollMs + PUSH_DEADLINE_MS);

      await bindPublisher();
      await waitUntil("the ZMQ channel back", async () => (await readyzOf(under.scanner)).degraded === undefined, 15_000);
      await untilHeard(under.scanner);
      const again = await mineAnnounced();
      await under.recorder.waitFor(`block ${again} processed`, processed(under.recorder, again), PUSH_DEADLINE_MS);
    } finally {
      await stopScannerUnderTest(under);
    }
  });
});
