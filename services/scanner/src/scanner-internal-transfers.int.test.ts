/**
 * Every deposit seen (issue 26): ether and tokens that reach a watched address through a contract,
 * against Anvil (a real EVM node with call traces), real Postgres and NATS, the scanner reading the
 * node through the hostile-node proxy. Payments come from `contracts/ValueRouter.sol`: a forwarder,
 * nested relays, a batch payout, SELFDESTRUCT, CREATE2 with value, token payouts and pulls, and the
 * failures that must stay silent (an inner call that reverts, a transaction that reverts).
 */
import { deployUsdtLikeToken, deployValueRouter, NO_FAULTS, silentLogger, type TestDatabase } from "@chaingate/testing";
import { Wallet } from "ethers";
import { describe, expect } from "vitest";
import { scannerConfigSchema } from "./config.ts";
import { createScannerService, type ScannerService } from "./create-scanner-service.ts";
import { readyzOf, scrapeMetrics, waitForWebhookStored, waitUntil, type EventRecorder } from "./testing/scanner-harness.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";
import { startTraceRun, type PayingContracts, type TraceMode, type TraceRun } from "./testing/trace-run.ts";

const ETHER = 10n ** 18n;
const newAddresses = (count: number) => Array.from({ length: count }, () => Wallet.createRandom().address);

/**
 * A fixture per trace mode, started when a test of that mode first asks for it: the modes' scanners
 * are independent (a database, namespace and proxy each) and follow the same Anvil.
 */
const it = scannerTest.extend<{
  payingContracts: PayingContracts;
  debugTraceRun: TraceRun;
  jsTraceRun: TraceRun;
  parityTraceRun: TraceRun;
}>({
  payingContracts: [
    async ({ anvil }, use) => {
      // One after the other: both deploy from the first dev account (nonces).
      const token = await deployUsdtLikeToken(anvil);
      const router = await deployValueRouter(anvil);
      await use({ token, router });
    },
    { scope: "file" },
  ],
  debugTraceRun: [
    async ({ anvil, payingContracts, bus }, use) => startTraceRun("debug", anvil, payingContracts, bus, use),
    { scope: "file" },
  ],
  jsTraceRun: [async ({ anvil, payingContracts, bus }, use) => startTraceRun("js", anvil, payingContracts, bus, use), { scope: "file" }],
  parityTraceRun: [
    async ({ anvil, payingContracts, bus }, use) => startTraceRun("parity", anvil, payingContracts, bus, use),
    { scope: "file" },
  ],
});

/** A test of one trace mode: its body gets that mode's run. */
const traceTest: Record<TraceMode, (name: string, body: (run: TraceRun) => Promise<void>) => void> = {
  debug: (name, body) => it(name, ({ debugTraceRun }) => body(debugTraceRun)),
  js: (name, body) => it(name, ({ jsTraceRun }) => body(jsTraceRun)),
  parity: (name, body) => it(name, ({ parityTraceRun }) => body(parityTraceRun)),
};

/** The tests of one trace mode: ether paid through contracts (a forwarder, nested calls, reverts, SELFDESTRUCT, CREATE2). */
function etherThroughContractsTests(mode: TraceMode): void {
  const test = traceTest[mode];
  test("a contract forwarding 1 ETH to a watched address is notified as an internal transfer; a plain transfer beside it as before", async ({
    node,
    router,
    eventsOf,
    watch,
    settled,
  }) => {
    const [forwardedTo, paidDirectly] = newAddresses(2) as [string, string];
    const webhook = await watch([forwardedTo, paidDirectly]);
    const forwarded = await router.forward(forwardedTo, ETHER);
    const direct = await node.rpc<string>("eth_sendTransaction", [{ from: node.accounts[1]!.address, to: paidDirectly, value: "0x1" }]);
    await settled(direct);
    await settled(forwarded);
    expect(eventsOf(forwarded)).toEqual([
      expect.objectContaining({
        type: "transfer",
        webhook_id: webhook,
        coin: "ETH",
        currency: "ETH",
        from: router.address,
        to: forwardedTo.toLowerCase(),
        watched_address: forwardedTo,
        amount: "1",
        raw_amount: ETHER.toString(),
        decimals: 18,
        position: 1,
        internal: true,
        trace_address: "0",
        execution_status: "SUCCESS",
        generation: 0,
      }),
    ]);
    expect(eventsOf(direct)).toEqual([
      expect.objectContaining({ to: paidDirectly.toLowerCase(), position: null, internal: false, trace_address: null }),
    ]);
    expect(BigInt(await node.rpc<string>("eth_getBalance", [forwardedTo, "latest"]))).toBe(ETHER);
  });

  test("a payment three calls deep is notified from the innermost contract, at its own position", async ({
    node,
    router,
    eventsOf,
    watch,
    settled,
  }) => {
    const [relayB, relayC] = [await deployValueRouter(node), await deployValueRouter(node)];
    const [payee] = newAddresses(1) as [string];
    await watch([payee]);
    const txid = await router.forwardThrough([relayB.address, relayC.address], payee, 5n);
    await settled(txid);
    expect(eventsOf(txid)).toEqual([
      expect.objectContaining({
        from: relayC.address,
        to: payee.toLowerCase(),
        raw_amount: "5",
        position: 3,
        trace_address: "0.0.0",
        internal: true,
      }),
    ]);
  });

  test("an inner call that pays and then reverts, inside a transaction that succeeds, is not notified", async ({
    node,
    router,
    eventsOf,
    receiptOf,
    watch,
    settled,
  }) => {
    const [payee] = newAddresses(1) as [string];
    await watch([payee]);
    const txid = await router.tryForward(payee, 7n);
    await settled(txid);
    expect((await receiptOf(txid)).status).toBe("0x1");
    expect(BigInt(await node.rpc<string>("eth_getBalance", [payee, "latest"]))).toBe(0n);
    expect(eventsOf(txid)).toEqual([]);
  });

  test("a transaction that reverts after its inner call paid is not notified", async ({ router, eventsOf, receiptOf, watch, settled }) => {
    const [payee] = newAddresses(1) as [string];
    await watch([payee]);
    const txid = await router.forwardThenRevert(payee, 9n);
    await settled(txid);
    expect((await receiptOf(txid)).status).toBe("0x0");
    expect(eventsOf(txid)).toEqual([]);
  });

  test("SELFDESTRUCT to a watched beneficiary is notified", async ({ node, eventsOf, watch, settled }) => {
    const doomed = await deployValueRouter(node);
    const [beneficiary] = newAddresses(1) as [string];
    await watch([beneficiary]);
    const txid = await doomed.destroy(beneficiary, 11n);
    await settled(txid);
    expect(eventsOf(txid)).toEqual([
      expect.objectContaining({ from: doomed.address, to: beneficiary.toLowerCase(), raw_amount: "11", position: 1, internal: true }),
    ]);
  });

  test("a contract created with value at a watched CREATE2 address (a counterfactual deposit address) is notified", async ({
    router,
    eventsOf,
    watch,
    settled,
  }) => {
    const salt = `0x${{ debug: "2a", parity: "2b", js: "2c" }[mode].repeat(32)}`;
    const deposit = await router.depositAddress(salt);
    await watch([deposit]);
    const txid = await router.createDeposit(salt, 13n);
    await settled(txid);
    expect(eventsOf(txid)).toEqual([expect.objectContaining({ from: router.address, to: deposit, raw_amount: "13", internal: true })]);
  });
}

/** The tests of one trace mode: batch payouts, tokens, a reorg and a failing trace call. */
function payoutsTokensReorgsAndTraceFailuresTests(mode: TraceMode): void {
  const test = traceTest[mode];
  test("a batch payout to 50 watched addresses in one transaction: 50 notifications, each at its own position", async ({
    router,
    eventsOf,
    watch,
    settled,
  }) => {
    const payees = newAddresses(50);
    await watch(payees);
    const amounts = payees.map((_, i) => BigInt(i + 1));
    const txid = await router.payout(payees, amounts);
    await settled(txid);
    const events = eventsOf(txid);
    expect(events).toHaveLength(50);
    expect(new Set(events.map((e) => e.position)).size).toBe(50);
    expect(new Set(events.map((e) => e.event_id)).size).toBe(50);
    const paid = new Map(events.map((e) => [e.to, e.raw_amount]));
    expect(payees.map((payee) => paid.get(payee.toLowerCase()))).toEqual(amounts.map(String));
  });

  test("tokens a contract pays (transfer, a 50-address payout, transferFrom) are notified from their logs, each once", async ({
    node,
    router,
    token,
    eventsOf,
    watch,
    settled,
  }) => {
    const payees = newAddresses(50);
    const [pulledTo] = newAddresses(1) as [string];
    await watch([...payees, pulledTo], true);
    const holder = node.accounts[0]!.address;
    await node.rpc("eth_sendTransaction", [{ from: holder, to: token.address, data: token.transferData(router.address, 1_000_000_000n) }]);
    const payout = await router.payTokens(
      token.address,
      payees,
      payees.map(() => 1_000_000n),
    );
    await settled(payout);
    const events = eventsOf(payout);
    expect(events).toHaveLength(50);
    expect(events.every((e) => e.currency === "USDT" && e.amount === "1" && e.from === router.address && e.internal === false)).toBe(true);
    expect(new Set(events.map((e) => e.position)).size).toBe(50);

    const approve = `0x095ea7b3${router.address.slice(2).padStart(64, "0")}${5_000_000n.toString(16).padStart(64, "0")}`;
    await node.rpc("eth_sendTransaction", [{ from: holder, to: token.address, data: approve }]);
    const pull = await router.pullTokens(token.address, holder, pulledTo, 2_500_000n);
    await settled(pull);
    expect(eventsOf(pull)).toEqual([
      expect.objectContaining({
        currency: "USDT",
        from: holder.toLowerCase(),
        to: pulledTo.toLowerCase(),
        amount: "2.5",
        token_contract: token.address,
      }),
    ]);
  });

  test("a reorg that removes a block with an internal transfer reverts it; mined again, it is notified under the next generation", async ({
    node,
    router,
    recorder,
    eventsOf,
    watch,
  }) => {
    const [payee] = newAddresses(1) as [string];
    await watch([payee]);
    const snapshot = await node.rpc<string>("evm_snapshot");
    const txid = await router.forward(payee, 3n);
    await recorder.waitFor("the transfer", () => eventsOf(txid).length === 1);
    const raw = await node.rpc<string>("eth_getRawTransactionByHash", [txid]);
    await node.rpc("evm_revert", [snapshot]);
    await node.rpc("evm_mine");
    await node.rpc("evm_mine");
    await recorder.waitFor("the revert", () => eventsOf(txid).some((e) => e.type === "reverted"), 20_000);
    expect(await node.rpc<string>("eth_sendRawTransaction", [raw])).toBe(txid);
    await recorder.waitFor("the transfer mined again", () => eventsOf(txid).length === 3, 20_000);
    expect(eventsOf(txid).map((e) => [e.type, e.generation, e.position, e.trace_address])).toEqual([
      ["transfer", 0, 1, "0"],
      ["reverted", 0, 1, "0"],
      ["transfer", 1, 1, "0"],
    ]);
  });

  test("while the node fails the trace call, the block is waited for, never matched without its traces; then notified", async ({
    router,
    proxy,
    recorder,
    processed,
    eventsOf,
    receiptOf,
    watch,
  }) => {
    const [payee] = newAddresses(1) as [string];
    await watch([payee]);
    proxy.resetCounters();
    proxy.setFaults({ ...NO_FAULTS, failedTraces: 1 });
    try {
      const txid = await router.forward(payee, 17n);
      const height = Number((await receiptOf(txid)).blockNumber);
      await recorder.waitFor("three failed trace calls", () => proxy.counters().failedTraces >= 3, 20_000);
      expect(recorder.blocks.some((block) => block.height === height)).toBe(false);
      expect(eventsOf(txid)).toEqual([]);
      proxy.setFaults(NO_FAULTS);
      await processed(height);
      expect(eventsOf(txid)).toEqual([expect.objectContaining({ raw_amount: "17", internal: true })]);
    } finally {
      proxy.setFaults(NO_FAULTS);
    }
  });
}

describe.each(["debug", "js", "parity"] as const)("internal transfers on Anvil, ETH_TRACE_MODE=%s (debug is the default)", (mode) => {
  etherThroughContractsTests(mode);
  payoutsTokensReorgsAndTraceFailuresTests(mode);
});

describe("a node that refuses call traces (Hardhat 2 has neither method)", () => {
  const payee = Wallet.createRandom().address;
  /** The restart helper: a scanner over the file's database and bus following the file's Hardhat; the running one is closed first. */
  const startUnder = async (
    { hardhat, database, recorder }: { hardhat: { url: string }; database: TestDatabase; recorder: EventRecorder & { natsUrl: string } },
    running: ScannerService | undefined,
    settings: Record<string, string>,
  ) => {
    await running?.close();
    const config = scannerConfigSchema.parse({
      PORT: "0",
      DATABASE_URL: database.connectionString,
      NATS_URL: recorder.natsUrl,
      NATS_NAMESPACE: recorder.namespace,
      ETH_RPC_URL: hardhat.url,
      SCANNER_POLL_INTERVAL_MS: "100",
      ETH_START_HEIGHT: "1",
      ...settings,
    });
    const scanner = await createScannerService(config, silentLogger);
    await recorder.publishWebhook({ webhook_id: 1, coin: "ETH", addresses: [payee] });
    await waitForWebhookStored(database.connectionString, 1);
    return scanner;
  };

  it("is loud at start (log, metric, /readyz degraded), holds ETH back, and follows without internal transfers once the operator says off", async ({
    hardhat,
    database,
    recorder: events,
  }) => {
    const txid = await hardhat.rpc<string>("eth_sendTransaction", [{ from: hardhat.accounts[0]!.address, to: payee, value: "0x2a" }]);
    const refused = await startUnder({ hardhat, database, recorder: events }, undefined, {});
    let following: ScannerService | undefined;
    try {
      await waitUntil("the refusal on /readyz", async () => (await readyzOf(refused)).degraded?.callTraces !== undefined, 20_000);
      expect((await readyzOf(refused)).degraded?.callTraces).toMatch(/ETH the node refuses debug_traceBlockByHash/);
      expect(await scrapeMetrics(refused)).toMatch(/^scanner_call_traces_unavailable\{chain="eth"\} 1$/m);
      // The block with the payment is waited for, not matched without its traces.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(events.transfers).toEqual([]);
      expect(events.blocks.some((block) => block.height >= 1)).toBe(false);

      following = await startUnder({ hardhat, database, recorder: events }, refused, { ETH_TRACE_MODE: "off" });
      await events.waitFor("the plain transfer", () => events.transfers.some((t) => t.txid === txid), 20_000);
    } finally {
      await (following ?? refused).close();
    }
  });
});
