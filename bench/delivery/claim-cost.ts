/**
 * Delivery claims (issue #21): what one claim costs with a backlog of 1,000,000 due jobs against the
 * same claim with a backlog of 100, and what it gives each account. Account 1 has 50 webhooks
 * whose jobs are all older than those of accounts 2–51 (one webhook and one due job each); the
 * claim runs as the worker does (256 free slots, 8 per webhook, 64 per account), straight on the
 * job store over real Postgres, and its jobs are made due again after each run so every run meets
 * the same backlog. Target: the large backlog's p50 within 3× the small one's, and every other
 * account served in every claim.
 *
 * BENCH_CLAIM_BACKLOG (1,000,000): the large backlog's jobs.
 */
import { createTestDatabase } from "@chaingate/testing";
import { openJobBacklog, type JobBacklog } from "@chaingate/delivery/testing";

const BACKLOG = Number(process.env.BENCH_CLAIM_BACKLOG ?? 1_000_000);
const HOG_WEBHOOKS = 50;
const OTHER_ACCOUNTS = 50;
const CLAIMS = 30;
const LIMITS = { free: 256, perWebhook: 8, perAccount: 64, leaseMs: 30_000 };
const TARGET_RATIO = 3;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

interface ClaimFigures {
  p50: number;
  p99: number;
  /** Jobs the hog account got per claim, and how many other accounts were served (the least over the runs). */
  hogJobs: number;
  othersServed: number;
}

async function measureClaims(backlog: JobBacklog, hogAccount: number): Promise<ClaimFigures> {
  const times: number[] = [];
  let hogJobs = 0;
  let othersServed = Infinity;
  for (let run = 0; run < CLAIMS; run++) {
    const started = performance.now();
    const claimed = await backlog.claim({ ...LIMITS, inFlight: new Map(), accountInFlight: new Map() });
    times.push(performance.now() - started);
    hogJobs = Math.max(hogJobs, claimed.filter((job) => job.account_id === hogAccount).length);
    othersServed = Math.min(
      othersServed,
      new Set(claimed.filter((job) => job.account_id !== hogAccount).map((job) => job.account_id)).size,
    );
    await backlog.release(claimed.map((job) => job.id));
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), hogJobs, othersServed };
}

const describe = (label: string, figures: ClaimFigures) =>
  `${label}: p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms; account 1 got ${figures.hogJobs} jobs, ${figures.othersServed}/${OTHER_ACCOUNTS} other accounts served`;

export async function benchDeliveryClaims(): Promise<boolean> {
  const database = await createTestDatabase();
  const backlog = await openJobBacklog(database.connectionString);
  try {
    const hogAccount = 1;
    const hogs = await backlog.createWebhooks(hogAccount, HOG_WEBHOOKS);
    const others: number[] = [];
    for (let account = 2; account < 2 + OTHER_ACCOUNTS; account++) others.push(...(await backlog.createWebhooks(account, 1)));
    await backlog.addDueJobs(hogs, 1, 60_000);
    await backlog.addDueJobs(others, 1, 0);
    const small = await measureClaims(backlog, hogAccount);
    const loadStarted = performance.now();
    await backlog.addDueJobs(hogs, Math.ceil(BACKLOG / HOG_WEBHOOKS), 3_600_000);
    const loadedInS = (performance.now() - loadStarted) / 1000;
    const large = await measureClaims(backlog, hogAccount);
    const ratio = large.p50 / small.p50;
    const passed = ratio <= TARGET_RATIO && large.othersServed === OTHER_ACCOUNTS && small.othersServed === OTHER_ACCOUNTS;
    console.log(describe(`delivery claim, backlog ${HOG_WEBHOOKS + OTHER_ACCOUNTS}`, small));
    console.log(describe(`delivery claim, backlog ${BACKLOG.toLocaleString("en")} (loaded in ${loadedInS.toFixed(1)} s)`, large));
    console.log(
      `delivery claim: large / small p50 = ${ratio.toFixed(2)}   target <= ${TARGET_RATIO}, every other account served   ${passed ? "PASS" : "FAIL"}`,
    );
    return passed;
  } finally {
    await backlog.close();
    await database.drop();
  }
}
