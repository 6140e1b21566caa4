/**
 * The drill's rounds: a schedule drawn up front from the seed (fault phases, reorgs, a NATS pause,
 * list changes, issued addresses, scanner kills), then each round's scheduled events and payments.
 */
import { NO_FAULTS } from "@chaingate/testing";
import {
  BASELINE_FAULTS,
  FAULT_PROFILES,
  MEMPOOL_SEEN_MS,
  NATS_PAUSE_ROUNDS,
  PHASE_ROUNDS,
  ROUND_MS,
  ROUNDS,
  SCANNER_KILLS,
  paymentRandom,
  payables,
  scheduleRandom,
  sleep,
  watch,
  type HostileDrill,
} from "./hostile-drill.ts";
import { issueWatched, type DrillWebhooks } from "./drill-webhooks.ts";
import { payBtc, payBtcReplaced, payEth, payEthInternally, payTrx, payTrxInternally } from "./payments.ts";
import { btcReorg, ethReorg, trxReorg } from "./reorgs.ts";
import { leaseHolder } from "./scanner-progress.ts";

export type DrillSchedule = ReturnType<typeof drawSchedule>;

/** The schedule, drawn up front from the seed. */
export function drawSchedule() {
  const roundIn = (from: number, to: number) => scheduleRandom.between(from, to);
  return {
    btcReorg: roundIn(4, ROUNDS - 6),
    ethReorg: roundIn(4, ROUNDS - 6),
    trxReorgs: [roundIn(3, ROUNDS / 2), roundIn(ROUNDS / 2, ROUNDS - 4)],
    trxRequeue: [scheduleRandom.next() < 0.7, scheduleRandom.next() < 0.7],
    natsPause: roundIn(6, ROUNDS - NATS_PAUSE_ROUNDS - 4),
    putClientList: roundIn(3, ROUNDS - 6),
    putXpubIds: roundIn(3, ROUNDS - 6),
    issues: [roundIn(2, ROUNDS - 4), roundIn(2, ROUNDS - 4)],
    /** Rounds whose Bitcoin payment is replaced by fee while pending; the round the node restarts with its mempool emptied. */
    replacedPayments: Array.from({ length: 4 }, () => roundIn(1, ROUNDS - 3)),
    nodeRestart: roundIn(4, ROUNDS - 6),
    killsAtMs: Array.from({ length: SCANNER_KILLS }, () => ({
      at: roundIn(3_000, (ROUNDS - 3) * ROUND_MS),
      coin: scheduleRandom.pick(["BTC", "ETH", "TRX"] as const),
    })),
    phases: Array.from({ length: Math.ceil(ROUNDS / PHASE_ROUNDS) }, () => ({
      BTC: scheduleRandom.pick(Object.keys(FAULT_PROFILES)),
      ETH: scheduleRandom.pick(Object.keys(FAULT_PROFILES)),
      TRX: scheduleRandom.pick(Object.keys(FAULT_PROFILES)),
    })),
  };
}

/**
 * Runs every round (and the scanner kills beside them), then lets the chains settle: faults off,
 * everything pending mined, a few blocks on top.
 */
export async function runRounds(drill: HostileDrill, webhooks: DrillWebhooks, schedule: DrillSchedule): Promise<void> {
  const { proxies, node, anvil, tron, nats, product, started } = drill;
  const roundsStarted = Date.now();
  let finished = false;
  const kills = (async () => {
    for (const { at, coin } of [...schedule.killsAtMs].sort((a, b) => a.at - b.at)) {
      await sleep(at - (Date.now() - roundsStarted));
      if (finished) break;
      const holder = (await leaseHolder(product, coin)) ?? "scanner";
      await product.stack.restart(holder, "SIGKILL");
      drill.performed.push(`SIGKILL ${holder} (${coin} lease) at ${Date.now() - started} ms`);
    }
  })();

  const natsState = { down: false };
  for (let round = 0; round < ROUNDS; round++) {
    const roundStart = Date.now();
    await performScheduledEvents(drill, webhooks, schedule, round, natsState);

    await (schedule.replacedPayments.includes(round) ? payBtcReplaced(drill) : payBtc(drill));
    // Long enough in the mempool to be announced as pending before its block.
    await sleep(MEMPOOL_SEEN_MS);
    await node.mine(1);
    await (paymentRandom.next() < 1 / 3 ? payEthInternally(drill) : payEth(drill));
    await (paymentRandom.next() < 1 / 3 ? payTrxInternally(drill) : payTrx(drill));
    await tron.devnode.produceBlock();

    if (round === schedule.btcReorg) await btcReorg(drill);
    if (round === schedule.ethReorg) await ethReorg(drill);
    for (const [index, reorgRound] of schedule.trxReorgs.entries())
      if (round === reorgRound) await trxReorg(drill, schedule.trxRequeue[index]!);
    await sleep(ROUND_MS - (Date.now() - roundStart));
  }
  finished = true;
  await kills;
  if (natsState.down) await nats.start();

  // The chains settle: faults off, everything pending mined, a few blocks on top.
  for (const proxy of Object.values(proxies)) proxy.setFaults(NO_FAULTS);
  await node.mine(2);
  for (let i = 0; i < 2; i++) await anvil.rpc("evm_mine");
  for (let i = 0; i < 2; i++) await tron.devnode.produceBlock();
}

/** What the schedule says happens before `round`'s payments: a fault phase, the NATS pause, list changes, issued addresses. */
async function performScheduledEvents(
  drill: HostileDrill,
  webhooks: DrillWebhooks,
  schedule: DrillSchedule,
  round: number,
  natsState: { down: boolean },
): Promise<void> {
  const { api, proxies, anvil, tron, nats, started } = drill;
  const { xpubId, clientBtc, btcAuto, btcLater, eth, trx } = webhooks;
  if (round % PHASE_ROUNDS === 0) {
    for (const coin of ["BTC", "ETH", "TRX"] as const)
      proxies[coin].setFaults({
        ...NO_FAULTS,
        ...BASELINE_FAULTS[coin],
        ...FAULT_PROFILES[schedule.phases[round / PHASE_ROUNDS]![coin]],
      });
  }
  if (round === schedule.natsPause) {
    await nats.stop();
    natsState.down = true;
    // Issued and added while the registry cannot publish; paid in the next rounds, NATS still down.
    await issueWatched(drill, webhooks, "xpub issued during the NATS pause");
    const [ethAdded, trxAdded] = [anvil.accounts[7]!.address.toLowerCase(), tron.devnode.genesis.accounts[3]!.base58];
    await api("POST", `/api/v1/webhooks/${eth.id}/addresses`, { addresses: [ethAdded] });
    watch(drill, ethAdded, eth.id, "added during the NATS pause");
    await api("POST", `/api/v1/webhooks/${trx.id}/addresses`, { addresses: [trxAdded] });
    watch(drill, trxAdded, trx.id, "added during the NATS pause");
    payables(drill, "ETH", ethAdded);
    payables(drill, "TRX", trxAdded);
    drill.performed.push(`NATS stopped at ${Date.now() - started} ms`);
  }
  if (natsState.down && round === schedule.natsPause + NATS_PAUSE_ROUNDS) {
    await nats.start();
    natsState.down = false;
    drill.performed.push(`NATS started at ${Date.now() - started} ms`);
  }
  if (schedule.issues.includes(round)) await issueWatched(drill, webhooks, "xpub issued");
  if (round === schedule.nodeRestart) {
    // A payment announced as pending, then the node restarts with its mempool emptied; its wallet
    // broadcasts the payment again, and a later block mines it.
    await payBtc(drill);
    await sleep(MEMPOOL_SEEN_MS);
    await drill.node.restart({ extraArgs: ["-persistmempool=0"] });
    drill.performed.push(`litecoind restarted without its mempool at +${Date.now() - started} ms`);
  }
  if (round === schedule.putClientList) {
    // The client's own list, sent again: the addresses the key added must stay watched (item 8).
    await api("PUT", `/api/v1/webhooks/${btcAuto.id}`, { addresses: clientBtc.slice(0, 2) });
    drill.listReplacedAt = Date.now();
    drill.performed.push(`PUT addresses on the auto-watching webhook at +${Date.now() - started} ms`);
  }
  if (round === schedule.putXpubIds) {
    // Naming the key later: the addresses it issued before are watched from now on (item 8).
    await api("PUT", `/api/v1/webhooks/${btcLater.id}`, { xpub_ids: [xpubId] });
    const since = Date.now();
    for (const [address, list] of drill.watches)
      if (list.some((w) => w.origin.startsWith("xpub") && w.webhookId === btcAuto.id))
        watch(drill, address, btcLater.id, "xpub issued before xpub_ids was set", since);
    drill.xpubWebhooks.push(btcLater.id);
    drill.performed.push(`PUT xpub_ids on the other webhook at +${since - started} ms`);
  }
}
