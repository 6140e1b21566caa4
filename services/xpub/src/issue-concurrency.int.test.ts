/**
 * The spec's "concurrent issue calls never hand out the same index", across replicas: two xpub
 * processes (started with the package's start script), called at their internal edge as the
 * gateway calls them, one database.
 */
import { expect, describe } from "vitest";
import { fileURLToPath } from "node:url";
import { internalEdge, startServiceProcess, TEST_INTERNAL_TOKEN, type InternalEdge } from "@chaingate/testing";
import { integrationTest } from "@chaingate/testing/fixtures";
import vectors from "./domain/fixtures/bip84-vectors.json" with { type: "json" };
import { auditIssuedAddresses } from "./testing/index.ts";

const SERVICE_DIR = fileURLToPath(new URL("..", import.meta.url));
const CALLS = 200;
const ACCOUNT_0 = vectors.accounts[0]!;
/** The account the gateway would have authenticated. */
const ACCOUNT_ID = 1;

/** `replicas`: the edges of two xpub processes over the file's database. */
const it = integrationTest.extend<{ replicas: InternalEdge[] }>({
  replicas: [
    async ({ database }, use) => {
      // A small pool per replica so the 200 calls really queue on the row lock from both sides.
      const env = {
        DATABASE_URL: database.connectionString,
        DATABASE_POOL_SIZE: "5",
        LOG_LEVEL: "warn",
        INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
      };
      const processes = [await startServiceProcess(SERVICE_DIR, env), await startServiceProcess(SERVICE_DIR, env)];
      try {
        await use(processes.map((replica) => internalEdge({ url: replica.url })));
      } finally {
        for (const replica of processes) await replica.stop();
      }
    },
    { scope: "file" },
  ],
});

const post = (edge: InternalEdge, path: string, body?: unknown) =>
  edge.request(ACCOUNT_ID, path, {
    method: "POST",
    headers: { accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe(`${CALLS} concurrent issue calls to two xpub processes`, () => {
  it("hand out indexes 0..199 once each, 200 distinct addresses, and next_index 200", async ({ replicas: edges, database }) => {
    const registered = (await (await post(edges[0]!, "/api/v1/btc/xpub", { xpub: ACCOUNT_0.zpub })).json()) as { id: number };
    const responses = await Promise.all(
      Array.from({ length: CALLS }, (_, i) => post(edges[i % 2]!, `/api/v1/btc/xpub/${registered.id}/address`)),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(CALLS).fill(201));
    const issued = (await Promise.all(responses.map((r) => r.json()))) as Array<{ address: string; index: number; path: string }>;

    expect(issued.map((a) => a.index).sort((a, b) => a - b)).toEqual(Array.from({ length: CALLS }, (_, i) => i));
    expect(new Set(issued.map((a) => a.address)).size).toBe(CALLS);
    const byIndex = new Map(issued.map((a) => [a.index, a]));
    for (const vector of ACCOUNT_0.addresses.filter((a) => a.chain === 0 && a.index < CALLS)) {
      expect(byIndex.get(vector.index)).toEqual({ address: vector.mainnet, index: vector.index, path: vector.path });
    }

    const record = (await (await post(edges[1]!, "/api/v1/btc/xpub", { xpub: ACCOUNT_0.zpub })).json()) as Record<string, unknown>;
    expect(record).toMatchObject({ id: registered.id, next_index: CALLS, issued_count: CALLS });
    expect(await auditIssuedAddresses(database.connectionString, registered.id)).toEqual({
      rows: CALLS,
      distinctIndexes: CALLS,
      distinctAddresses: CALLS,
      minIndex: 0,
      maxIndex: CALLS - 1,
      nextIndex: CALLS,
    });
  });
});
