/**
 * A key named (PUT `xpub_ids`) while its addresses are being recorded (`address.issued`), both at
 * full speed over a real Postgres: every address the key issued ends up watched. Without the key
 * lock, an address recorded between the PUT reading the key's addresses and its commit was missed.
 */
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { deliveryTest } from "../testing/delivery-fixtures.ts";
import { createWebhookRepository } from "./webhook-repository.ts";

const ACCOUNT = 3;
const KEY = 77;
const ISSUED = 200;
const WEBHOOKS = 20;

const it = deliveryTest;

it("a PUT naming a key while the key's addresses are recorded misses none of them", async ({ deliveryDb: db }) => {
  const repository = createWebhookRepository(db.db);
  const webhooks = await Promise.all(
    Array.from({ length: WEBHOOKS }, () =>
      repository.create(ACCOUNT, {
        coin: "ETH",
        webhook_url: "http://93.184.216.34/",
        secret: "whsec_00",
        is_active: true,
        xpub_ids: [],
        confirmations: 1,
        include_tokens: false,
        addresses: [`0x${randomBytes(20).toString("hex")}`],
      }),
    ),
  );
  const issued = Array.from({ length: ISSUED }, () => `0x${randomBytes(20).toString("hex")}`);
  let recorded = 0;
  const record = (async () => {
    for (const [index, address] of issued.entries()) {
      await repository.watchIssuedAddress({
        account_id: ACCOUNT,
        xpub_id: KEY,
        coin: "ETH",
        address,
        index,
        issued_at: new Date().toISOString(),
      });
      recorded++;
    }
  })();
  // Each webhook names the key once, at its own moment while the addresses are being recorded.
  const name = webhooks.map(async ({ id }, i) => {
    const at = Math.floor(((i + 0.5) * ISSUED) / WEBHOOKS);
    while (recorded < at) await new Promise((resolve) => setImmediate(resolve));
    await repository.update(ACCOUNT, id, { xpub_ids: [KEY] });
  });
  await Promise.all([record, ...name]);
  const missed = [];
  for (const { id } of webhooks) {
    const addresses: string[] = [];
    for await (const chunk of repository.addressChunks(id)) addresses.push(...chunk);
    missed.push(...issued.filter((address) => !addresses.includes(address)).map((address) => `${id}:${address}`));
  }
  expect(missed).toEqual([]);
}, 120_000);
