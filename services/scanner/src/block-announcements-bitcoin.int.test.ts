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
import { freePort, startLitecoindRegtest, zmqHashBlock, zmqMempoolAdded, type LitecoindRegtest } from "@chaingate/testing";
import type { ScannerService } from "./create-scanner-service.ts";
import { Publisher } from "zeromq";
import { describe, expect } from "vitest";
import {
  readyzOf,
  scrapeMetrics,
  startScannerUnderTest,
  stopScannerUnderTest,
  waitForFirstBlock,
  waitForWebhookStored,
  waitUntil,
  type EventRecorder,
  type ScannerUnderTest,
} from "./testing/scanner-harness.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";
import { startTestScanner } from "./testing/start-test-scanner.ts";

const LONG_POLL_MS = 30_000;
/** Well under the poll interval, with room for a loaded CI machine. */
const PUSH_DEADLINE_MS = 5_000;

const processed = (recorder: EventRecorder, hash: string) => () => recorder.blocks.some((block) => block.hash === hash);

/** bitcoind's ZMQ publisher as a test drives it: announces a hash, is closed and bound again. */
interface ZmqPublisher {
  url: string;
  /** What bitcoind sends after connecting a block (doc/zmq.md): topic, 32-byte hash, LE uint32 sequence. */
  announce(hash: string): Promise<void>;
  /** What bitcoind sends when a transaction enters its mempool (`sequence`): txid, "A", LE uint64 mempool sequence. */
  announceTransaction(txid: string): Promise<void>;
  bind(): Promise<void>;
  close(): void;
}

const test = scannerTest.extend<{
  blocknotified: { node: LitecoindRegtest; under: ScannerUnderTest; token: string };
  announcementReplicas: { holder: Pick<ScannerUnderTest, "recorder" | "scanner">; standby: ScannerService };
  zmqPublisher: ZmqPublisher;
}>({
  /**
   * A litecoind of its own whose -blocknotify calls a scanner with a database and namespace of its
   * own (the file's run the replicas below, one of which holds BTC), polling every 30 s.
   */
  blocknotified: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads what a fixture needs from this pattern
    async ({}, use) => {
      const port = await freePort();
      const token = randomBytes(24).toString("hex");
      const dir = await mkdtemp(path.join(os.tmpdir(), "chaingate-blocknotify-"));
      let node: LitecoindRegtest | undefined;
      let under: ScannerUnderTest | undefined;
      try {
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
        const started = node;
        await waitForFirstBlock(under.recorder, () => started.mine(1));
        await use({ node, under, token });
      } finally {
        await stopScannerUnderTest(under);
        await node?.stop();
        await rm(dir, { recursive: true, force: true });
      }
    },
    { scope: "file" },
  ],
  /** Two replicas over the file's database and bus, following the file's litecoind, polling every 30 s: the first holds BTC. */
  announcementReplicas: [
    async ({ matureLitecoind: node, database, recorder }, use) => {
      const env = {
        BTC_RPC_URL: node.rpcUrl,
        BTC_RPC_USER: node.rpcUser,
        BTC_RPC_PASSWORD: node.rpcPassword,
        SCANNER_POLL_INTERVAL_MS: String(LONG_POLL_MS),
      };
      const scanner = await startTestScanner(database, recorder, env);
      let standby: ScannerService | undefined;
      try {
        await waitForFirstBlock(recorder, () => fetch(`${scanner.url}/internal/chains/btc/block-announced`, { method: "POST" }));
        // A second replica over the same database and bus: it stands by for BTC.
        standby = await startTestScanner(database, recorder, env);
        await use({ holder: { recorder, scanner }, standby });
      } finally {
        await standby?.close();
        await scanner.close();
      }
    },
    { scope: "file" },
  ],
  zmqPublisher: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads what a fixture needs from this pattern
    async ({}, use) => {
      const url = `tcp://127.0.0.1:${await freePort()}`;
      let publisher: Publisher | undefined;
      let sequence = 0;
      let mempoolSequence = 0n;
      const zmq: ZmqPublisher = {
        url,
        async announce(hash) {
          await publisher!.send(zmqHashBlock(hash, sequence++));
        },
        async announceTransaction(txid) {
          await publisher!.send(zmqMempoolAdded(txid, ++mempoolSequence, sequence++));
        },
        async bind() {
          publisher = new Publisher();
          await publisher.bind(url);
        },
        close: () => publisher?.close(),
      };
      try {
        await zmq.bind();
        await use(zmq);
      } finally {
        zmq.close();
      }
    },
    { scope: "file" },
  ],
});

describe("-blocknotify → POST /internal/chains/btc/block-announced (real litecoind)", () => {
  test("a mined block is processed within seconds though the poll interval is 30 s", async ({ blocknotified: { node, under } }) => {
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

  test("a reorg announced by push is handled as a reorg (rewound by parent hash, not skipped)", async ({
    blocknotified: { node, under },
  }) => {
    const [orphaned] = await node.mine(1);
    await under.recorder.waitFor("the block to be orphaned", processed(under.recorder, orphaned!), PUSH_DEADLINE_MS);
    await node.rpc("invalidateblock", [orphaned]);
    const [first, second] = await node.mine(2, await node.walletRpc<string>("getnewaddress"));
    await under.recorder.waitFor("the competing branch", processed(under.recorder, second!), PUSH_DEADLINE_MS);
    const orphanedHeight = under.recorder.blocks.find((block) => block.hash === orphaned)!.height;
    expect(under.recorder.blocks.find((block) => block.hash === first)).toMatchObject({ height: orphanedHeight });
    expect(await scrapeMetrics(under.scanner)).toMatch(/scanner_reorgs_total\{chain="btc"\} 1\n/);
  });

  test("the endpoint wants the internal token, and names chains the scanner does not follow", async ({
    blocknotified: { under, token },
  }) => {
    const url = `${under.scanner.url}/internal/chains/btc/block-announced`;
    expect((await fetch(url, { method: "POST" })).status).toBe(401);
    const headers = { "x-chaingate-internal-token": token };
    expect((await fetch(url, { method: "POST", headers })).status).toBe(202);
    const eth = await fetch(`${under.scanner.url}/internal/chains/eth/block-announced`, { method: "POST", headers });
    expect([eth.status, await eth.json()]).toEqual([404, { message: "This scanner does not follow ETH." }]);
  });
});

describe("several replicas: the announcement reaches the lease holder wherever it lands", () => {
  test("-blocknotify calling a standby wakes the holder over NATS", async ({
    matureLitecoind: node,
    announcementReplicas: { holder, standby },
  }) => {
    expect([holder.scanner.following(), standby.following()]).toEqual([["BTC"], []]);
    for (let i = 0; i < 2; i++) {
      const [hash] = await node.mine(1);
      const answer = await fetch(`${standby.url}/internal/chains/btc/block-announced`, { method: "POST" });
      expect(answer.status).toBe(202);
      await holder.recorder.waitFor(`block ${hash} processed by the holder`, processed(holder.recorder, hash!), PUSH_DEADLINE_MS);
    }
  });
});

describe("ZMQ hashblock (bitcoind's wire format from a zeromq publisher; blocks from real litecoind)", () => {
  /**
   * A SUB socket's subscription reaches the publisher a moment after it connects (ZMQ's "slow
   * joiner"): announce the current tip until the scanner counts one more announcement.
   */
  async function untilHeard(node: LitecoindRegtest, zmq: ZmqPublisher, scanner: ScannerService) {
    const count = async () =>
      Number(/scanner_block_announcements_total\{chain="btc",channel="zmq [^"]*"\} (\d+)/.exec(await scrapeMetrics(scanner))?.[1] ?? 0);
    const before = await count();
    const tip = await node.rpc<string>("getbestblockhash");
    await waitUntil("the scanner to hear an announcement", async () => {
      await zmq.announce(tip);
      return (await count()) > before;
    });
  }
  /** Mines a block and announces it, as a ZMQ-enabled bitcoind would. */
  async function mineAnnounced(node: LitecoindRegtest, zmq: ZmqPublisher) {
    const [hash] = await node.mine(1);
    await zmq.announce(hash!);
    return hash!;
  }

  test("each announced block is processed within seconds though the poll interval is 30 s", async ({
    matureLitecoind: node,
    zmqPublisher: zmq,
  }) => {
    const zmqUrl = zmq.url;
    const under = await startScannerUnderTest({
      BTC_RPC_URL: node.rpcUrl,
      BTC_RPC_USER: node.rpcUser,
      BTC_RPC_PASSWORD: node.rpcPassword,
      BTC_ZMQ_URL: zmqUrl,
      SCANNER_POLL_INTERVAL_MS: String(LONG_POLL_MS),
    });
    try {
      await waitForFirstBlock(under.recorder, async () => zmq.announce(await node.rpc<string>("getbestblockhash")));
      await untilHeard(node, zmq, under.scanner);
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const hash = await mineAnnounced(node, zmq);
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

  test("ZMQ sequence: a payment announced entering the mempool is pending within seconds though the mempool poll is 30 s", async ({
    matureLitecoind: node,
    zmqPublisher: zmq,
  }) => {
    const under = await startScannerUnderTest({
      BTC_RPC_URL: node.rpcUrl,
      BTC_RPC_USER: node.rpcUser,
      BTC_RPC_PASSWORD: node.rpcPassword,
      BTC_ZMQ_URL: zmq.url,
      MEMPOOL_POLL_INTERVAL_MS: String(LONG_POLL_MS),
    });
    try {
      await waitForFirstBlock(under.recorder, async () => zmq.announce(await node.rpc<string>("getbestblockhash")));
      await untilHeard(node, zmq, under.scanner);
      const address = await node.walletRpc<string>("getnewaddress");
      await under.recorder.publishWebhook({ webhook_id: 1, coin: "BTC", addresses: [address], pending: true });
      await waitForWebhookStored(under.database.connectionString, 1);
      // Two payments: the first wakes the watcher's whole diff, the second is read alone between diffs.
      for (let i = 0; i < 2; i++) {
        const started = Date.now();
        const txid = await node.walletRpc<string>("sendtoaddress", [address, "0.01"]);
        await zmq.announceTransaction(txid);
        await under.recorder.waitFor(`pending ${txid}`, () => under.recorder.mempool.some((e) => e.txid === txid), PUSH_DEADLINE_MS);
        expect(Date.now() - started).toBeLessThan(PUSH_DEADLINE_MS);
      }
    } finally {
      await stopScannerUnderTest(under);
    }
  });

  test("with the publisher gone the follower polls (readyz degraded, not failed); when it is back, push resumes", async ({
    matureLitecoind: node,
    zmqPublisher: zmq,
  }) => {
    const zmqUrl = zmq.url;
    const pollMs = 2_000;
    const under = await startScannerUnderTest({
      BTC_RPC_URL: node.rpcUrl,
      BTC_RPC_USER: node.rpcUser,
      BTC_RPC_PASSWORD: node.rpcPassword,
      BTC_ZMQ_URL: zmqUrl,
      SCANNER_POLL_INTERVAL_MS: String(pollMs),
    });
    try {
      await waitForFirstBlock(under.recorder, async () => zmq.announce(await node.rpc<string>("getbestblockhash")));
      await untilHeard(node, zmq, under.scanner);
      zmq.close();
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

      await zmq.bind();
      await waitUntil("the ZMQ channel back", async () => (await readyzOf(under.scanner)).degraded === undefined, 15_000);
      await untilHeard(node, zmq, under.scanner);
      const again = await mineAnnounced(node, zmq);
      await under.recorder.waitFor(`block ${again} processed`, processed(under.recorder, again), PUSH_DEADLINE_MS);
    } finally {
      await stopScannerUnderTest(under);
    }
  });
});
