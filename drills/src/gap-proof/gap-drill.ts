/**
 * The gap-proof drill's moving parts: payments on three chains (with one Bitcoin reorg), and the
 * fault script that runs beside them: two delivery kills, the receiver down for longer than the
 * retry schedule, and the ETH webhook refused until it is disabled, held a while, then enabled with
 * its backlog pushed. Every step is logged with its time.
 */
import type { AnvilNode, LitecoindRegtest, SeededRandom } from "@chaingate/testing";
import type { DevnodeContext } from "@chaingate/tron-devnode/testing";
import type { CreatedWebhook, NotificationStack } from "../notification-stack.ts";
import { paidOutputs } from "../paid-outputs.ts";
import { scannedHeight, type ScannedCoin } from "../scanner-watch.ts";
import type { DrillSubscriber } from "./drill-subscriber.ts";

/** When each fault happens, in ms after payments start. */
export const TIMELINE = {
  firstKillAt: 6_000,
  reorgAt: 9_000,
  /** The receiver is down for every webhook this long: longer than the compressed schedule (about 10 s, ±20 %). */
  downFrom: 12_000,
  downForMs: 16_000,
  secondKillAt: 30_000,
  /** The ETH webhook stays disabled this long while payments flow (its events are held). */
  disabledForMs: 5_000,
  /** Payments go on this long after the ETH webhook is enabled again. */
  afterEnableMs: 5_000,
  /** Payments stop by then whatever happened (a drill that cannot disable the webhook fails, it does not hang). */
  maxWindowMs: 110_000,
} as const;

export interface DrillPayment {
  coin: ScannedCoin;
  webhookId: number;
  txid: string;
  position: number | null;
  currency: string;
}

export interface GapDrill {
  product: NotificationStack;
  node: LitecoindRegtest;
  anvil: AnvilNode;
  tron: DevnodeContext;
  webhooks: Record<"btc" | "eth" | "trx", CreatedWebhook>;
  btcAddresses: string[];
  ethRecipient: string;
  subscriber: DrillSubscriber;
  random: SeededRandom;
  payments: DrillPayment[];
  /** Blocks that left the best chain. */
  leftBlocks: Set<string>;
  /** What was done, with its time after the start. */
  log: Array<{ atMs: number; what: string }>;
  started: number;
  /** The ETH webhook's newest sequence when it was disabled, and just before it was enabled. */
  ethWindow?: { disabledAt: number; enabledAt: number };
  faultsDone: boolean;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const elapsed = (drill: GapDrill) => Date.now() - drill.started;
const note = (drill: GapDrill, what: string) => drill.log.push({ atMs: elapsed(drill), what });
const until = (drill: GapDrill, atMs: number) => sleep(atMs - elapsed(drill));

/** One round: a Bitcoin payment and its block (at the reorg's time, a block that leaves), two Ethereum payments, a Tron payment and block. */
export async function payRound(drill: GapDrill, reorgNow: boolean): Promise<void> {
  const { node, anvil, tron, webhooks, random } = drill;
  const address = random.pick(drill.btcAddresses);
  const btcTxid = await node.walletRpc<string>("sendtoaddress", [address, (random.between(10_000, 9_999_999) / 1e8).toFixed(8)]);
  const position = (await paidOutputs(node, btcTxid)).get(address)!;
  drill.payments.push({ coin: "BTC", webhookId: webhooks.btc.id, txid: btcTxid, position, currency: "BTC" });
  if (reorgNow) await reorgBitcoin(drill);
  else await node.mine(1);
  for (let i = 0; i < 2; i++) {
    const wei = BigInt(random.between(1, 1_000_000)) * 1_000_000_000_007n;
    const txid = await anvil.rpc<string>("eth_sendTransaction", [
      { from: anvil.accounts[2]!.address, to: drill.ethRecipient, value: `0x${wei.toString(16)}` },
    ]);
    drill.payments.push({ coin: "ETH", webhookId: webhooks.eth.id, txid, position: null, currency: "ETH" });
  }
  const sent = await tron.tronWeb.trx.sendTransaction(tron.bob.base58, random.between(1_000, 2_000_000));
  await tron.devnode.produceBlock();
  drill.payments.push({ coin: "TRX", webhookId: webhooks.trx.id, txid: sent.transaction.txID, position: null, currency: "TRX" });
}

/** The block holding the round's payment is notified, then leaves for a longer branch that mines the payment again. */
async function reorgBitcoin(drill: GapDrill): Promise<void> {
  const { node, product } = drill;
  const [left] = await node.mine(1);
  const height = await node.rpc<number>("getblockcount");
  const deadline = Date.now() + 15_000;
  while ((await scannedHeight(product.scannerUrl, "BTC")) < height && Date.now() < deadline) await sleep(100);
  await node.rpc("invalidateblock", [left]);
  drill.leftBlocks.add(left!);
  await node.mine(2, await node.walletRpc<string>("getnewaddress"));
  note(
    drill,
    `bitcoin block ${height} left the best chain for a longer branch (the scanner had processed it: ${(await scannedHeight(product.scannerUrl, "BTC")) >= height})`,
  );
}

/** The fault script; payments run beside it until it is done (plus TIMELINE.afterEnableMs). */
export async function runFaults(drill: GapDrill): Promise<void> {
  const { product, subscriber, webhooks } = drill;
  try {
    await until(drill, TIMELINE.firstKillAt);
    await product.stack.restart("delivery-1", "SIGKILL");
    note(drill, "delivery killed (SIGKILL) and started again");
    await until(drill, TIMELINE.downFrom);
    subscriber.down = true;
    subscriber.refusing.add(webhooks.eth.id);
    note(drill, "receiver down for every webhook; the ETH webhook refused until it is disabled");
    await until(drill, TIMELINE.downFrom + TIMELINE.downForMs);
    subscriber.down = false;
    note(drill, "receiver up (the ETH webhook still refused)");
    await until(drill, TIMELINE.secondKillAt);
    await product.stack.restart("delivery-1", "SIGKILL");
    note(drill, "delivery killed (SIGKILL) and started again");
    const disabledAt = await waitUntilDisabled(drill);
    note(drill, `ETH webhook disabled by its failures, at sequence ${disabledAt}`);
    await sleep(TIMELINE.disabledForMs);
    subscriber.refusing.delete(webhooks.eth.id);
    const enabledAt = await lastSequence(drill, webhooks.eth.id);
    const enabled = await product.api("PUT", `/api/v1/webhooks/${webhooks.eth.id}`, { is_active: true, held_events: "push" });
    if (enabled.status !== 200) throw new Error(`enabling the ETH webhook answered ${enabled.status}: ${JSON.stringify(enabled.body)}`);
    drill.ethWindow = { disabledAt, enabledAt };
    note(drill, `ETH webhook enabled with held_events push at sequence ${enabledAt}`);
  } finally {
    drill.faultsDone = true;
  }
}

async function lastSequence(drill: GapDrill, webhookId: number): Promise<number> {
  const answer = await drill.product.api("GET", `/api/v1/webhooks/${webhookId}`);
  return (answer.body as { data: { last_sequence: number } }).data.last_sequence;
}

/** Waits until the ETH webhook is inactive (20 deliveries in a row ran out of attempts); its newest sequence then. */
async function waitUntilDisabled(drill: GapDrill): Promise<number> {
  const deadline = drill.started + TIMELINE.maxWindowMs - TIMELINE.disabledForMs - TIMELINE.afterEnableMs;
  for (;;) {
    const answer = await drill.product.api("GET", `/api/v1/webhooks/${drill.webhooks.eth.id}`);
    const webhook = (answer.body as { data: { is_active: number; last_sequence: number } }).data;
    if (webhook.is_active === 0) return webhook.last_sequence;
    if (Date.now() > deadline) throw new Error("the ETH webhook was not disabled in time");
    await sleep(250);
  }
}
