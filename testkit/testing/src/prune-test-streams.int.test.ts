/**
 * The global set-up's prune of earlier runs' streams, on a NATS server of this file's own (a prune
 * that pretends two hours have passed must never reach the shared server, where other files' streams
 * are young): test namespaces' streams older than an hour go, everything else stays.
 */
import { connect } from "nats";
import { expect } from "vitest";
import { integrationTest as it } from "./fixtures/integration-test.ts";
import { pruneTestStreams } from "./prune-test-streams.ts";

const HOUR_AND_A_BIT = 3_700_000;

it("deletes the test namespaces' streams older than an hour, and nothing else", async ({ privateNats }) => {
  const connection = await connect({ servers: privateNats.url });
  try {
    const manager = await connection.jetstreamManager();
    const names = ["t0123abcd_TRANSFERS", "scan89abcdef_BLOCKS", "benchevm1a2b_X", "ADDRESSES", "prod_TRANSFERS", "tester_TRANSFERS"];
    for (const [i, name] of names.entries()) await manager.streams.add({ name, subjects: [`s${i}.>`] });
    const streams = async () => (await manager.streams.names().next()).toSorted();

    expect(await pruneTestStreams(privateNats.url)).toBe(0);
    expect(await streams()).toEqual(names.toSorted());
    expect(await pruneTestStreams(privateNats.url, Date.now() + HOUR_AND_A_BIT)).toBe(3);
    expect(await streams()).toEqual(["ADDRESSES", "prod_TRANSFERS", "tester_TRANSFERS"]);
  } finally {
    await connection.close();
  }
});

it("never throws: a NATS that cannot be reached prunes nothing", async () => {
  expect(await pruneTestStreams("nats://127.0.0.1:1")).toBe(0);
});
