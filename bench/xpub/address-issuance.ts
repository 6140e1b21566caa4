/**
 * Address issuance (issue: xpub service). 50 concurrent clients POST `/api/v1/btc/xpub/{id}/address`
 * through the gateway for ONE key: the worst case, every call queues on the same row lock. Real
 * processes (gateway and xpub started with their start scripts), real Postgres with fsync on.
 * Afterwards the database is audited directly: duplicates (indexes or addresses) must be 0, the
 * indexes must be exactly 0..n-1 and n must equal the 201s autocannon counted. Target on a 2-core
 * machine: >= 500 issued addresses per second.
 */
import autocannon from "autocannon";
import { createAccountWithKey } from "@chaingate/gateway/testing";
import { createTestDatabase, freePort, spawnService, waitForHttp } from "@chaingate/testing";
// By path: bench/package.json (not this file's owner) does not list @chaingate/xpub yet.
import { auditIssuedAddresses } from "@chaingate/xpub/testing";
import { ROOT } from "../support/processes.ts";

const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;
const MEASURE_SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const TARGET_PER_SECOND = 500;
/** The BIP84 test-vector account key. */
const ZPUB = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs";

export async function benchAddressIssuance(): Promise<boolean> {
  const database = await createTestDatabase();
  const [xpubPort, gatewayPort] = [await freePort(), await freePort()];
  const xpub = spawnService(
    `${ROOT}services/xpub`,
    // The limit is raised so the run measures issuing, not the 422 path.
    { PORT: String(xpubPort), DATABASE_URL: database.connectionString, LOG_LEVEL: "warn", XPUB_MAX_ADDRESSES_PER_KEY: "10000000" },
    { captureOutput: false },
  );
  const gateway = spawnService(
    `${ROOT}services/gateway`,
    {
      PORT: String(gatewayPort),
      DATABASE_URL: database.connectionString,
      XPUB_URL: `http://127.0.0.1:${xpubPort}`,
      ACCESS_LOG: "false",
      LOG_LEVEL: "warn",
    },
    { captureOutput: false },
  );
  try {
    await Promise.all([waitForHttp(`http://127.0.0.1:${xpubPort}/healthz`), waitForHttp(`http://127.0.0.1:${gatewayPort}/healthz`)]);
    const { key } = await createAccountWithKey(database.connectionString, "bench");
    const headers = { "x-api-key": key, accept: "application/json", "content-type": "application/json" };
    const registered = await fetch(`http://127.0.0.1:${gatewayPort}/api/v1/btc/xpub`, {
      method: "POST",
      headers,
      body: JSON.stringify({ xpub: ZPUB }),
    });
    const { id } = (await registered.json()) as { id: number };
    const url = `http://127.0.0.1:${gatewayPort}/api/v1/btc/xpub/${id}/address`;

    const run = (duration: number) => autocannon({ url, method: "POST", connections: CONNECTIONS, duration, headers });
    const warmup = await run(WARMUP_SECONDS);
    const measured = await run(MEASURE_SECONDS);

    const created = warmup["2xx"] + measured["2xx"];
    const failures = warmup.non2xx + measured.non2xx + warmup.errors + measured.errors + warmup.timeouts + measured.timeouts;
    const perSecond = measured["2xx"] / MEASURE_SECONDS;
    const audit = await auditIssuedAddresses(database.connectionString, id);
    const duplicateIndexes = audit.rows - audit.distinctIndexes;
    const duplicateAddresses = audit.rows - audit.distinctAddresses;
    const consecutive = audit.rows === 0 || (audit.minIndex === 0 && audit.maxIndex === audit.rows - 1 && audit.nextIndex === audit.rows);

    const throughputOk = perSecond >= TARGET_PER_SECOND;
    const duplicatesOk = duplicateIndexes === 0 && duplicateAddresses === 0;
    // autocannon drops the answers still in flight when a run's time is up (up to CONNECTIONS per
    // run); the service did issue those, so the table may hold that many more rows than 201s.
    const abandoned = audit.rows - created;
    const bookkeepingOk = consecutive && abandoned >= 0 && abandoned <= 2 * CONNECTIONS && failures === 0;
    console.log(`\n== address issuance through the gateway (one key, ${CONNECTIONS} concurrent clients, ${MEASURE_SECONDS} s) ==`);
    console.log(
      `issued ${perSecond.toFixed(0)}/s (p50 ${measured.latency.p50} ms, p99 ${measured.latency.p99} ms)   target >= ${TARGET_PER_SECOND}/s   ${throughputOk ? "PASS" : "FAIL"}`,
    );
    console.log(
      `duplicates in the database: ${duplicateIndexes} indexes, ${duplicateAddresses} addresses (of ${audit.rows} rows)   target 0   ${duplicatesOk ? "PASS" : "FAIL"}`,
    );
    console.log(
      `rows ${audit.rows} = 201 responses ${created} + ${abandoned} abandoned in flight (<= ${2 * CONNECTIONS}), indexes ${audit.minIndex}..${audit.maxIndex}, next_index ${audit.nextIndex}, errors/non-2xx ${failures}   ${bookkeepingOk ? "PASS" : "FAIL"}`,
    );
    return throughputOk && duplicatesOk && bookkeepingOk;
  } finally {
    await gateway.stop();
    await xpub.stop();
    await database.drop();
  }
}
