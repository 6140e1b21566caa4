import pg from "pg";
import { connect } from "nats";
import { describe, expect, it } from "vitest";

describe("test infrastructure", () => {
  it("gives every test file a reachable Postgres and a NATS with JetStream", async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const { rows } = await client.query<{ one: number }>("select 1 as one");
    await client.end();
    expect(rows[0]?.one).toBe(1);

    const nc = await connect({ servers: process.env.NATS_URL });
    const info = await (await nc.jetstreamManager()).getAccountInfo();
    await nc.close();
    expect(info.limits).toBeDefined();
  });
});
