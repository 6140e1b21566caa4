/**
 * The registry at the service's internal edge (the account header and internal token the gateway
 * sends) over a real Postgres and NATS: statuses and bodies as the gateway passes them to a client.
 * The watch feed the registry publishes for the scanner: webhook-watch-feed.int.test.ts.
 */
import { describe, expect } from "vitest";
import { URL_NOT_PUBLIC } from "../domain/check-webhook-url.ts";
import { deliveryTest } from "../testing/delivery-fixtures.ts";
import { alice, bob, BTC, call, countRows, create, ETH, ISO, latestChange, newAccount, URL_OK } from "../testing/webhook-registry-calls.ts";

const it = deliveryTest;

describe("POST /api/v1/webhooks", () => {
  it("creates: 201 {data} exactly as the spec's table, is_active echoed as the boolean, secret whsec_ + hex", async ({ edge }) => {
    const { status, body } = await create(edge, alice, { coin: "BTC", webhook_url: URL_OK, addresses: [BTC, BTC], is_active: false });
    expect(status).toBe(201);
    expect(body).toEqual({
      data: {
        id: expect.any(Number),
        user_id: alice.accountId,
        coin: "BTC",
        webhook_url: URL_OK,
        addresses: [BTC],
        address_count: 1,
        secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
        is_active: false,
        xpub_ids: [],
        confirmations: 1,
        include_tokens: false,
        heartbeat_blocks: null,
        heartbeat_seconds: null,
        pending: false,
        all_tokens: false,
        last_sequence: 0,
        last_triggered_at: null,
        deleted_at: null,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    });
    const got = await call(edge, "GET", `/api/v1/webhooks/${body.data!.id}`, alice);
    expect(got.body.data!.is_active).toBe(0);
  });

  it("defaults is_active to true (1 when read back); ETH addresses are stored lower case", async ({ edge }) => {
    const { status, body } = await create(edge, alice, { coin: "ETH", webhook_url: URL_OK, addresses: [ETH, ETH.toLowerCase()] });
    expect(status).toBe(201);
    expect(body.data!.is_active).toBe(true);
    expect(body.data!.addresses).toEqual([ETH.toLowerCase()]);
    expect((await call(edge, "GET", `/api/v1/webhooks/${body.data!.id}`, alice)).body.data!.is_active).toBe(1);
  });

  it("each secret is new", async ({ edge }) => {
    const a = await create(edge, alice, { coin: "BTC", webhook_url: URL_OK, addresses: [BTC] });
    const b = await create(edge, alice, { coin: "BTC", webhook_url: URL_OK, addresses: [BTC] });
    expect(a.body.data!.secret).not.toBe(b.body.data!.secret);
  });

  it("422 with {message, errors} for a bad body, nothing stored", async ({ edge, database }) => {
    const before = await countRows(database, "webhooks");
    const { status, body } = await create(edge, alice, { coin: "DOGE", addresses: [] });
    expect(status).toBe(422);
    expect(body).toEqual({
      message: "The selected coin is invalid. (and 2 more errors)",
      errors: {
        coin: ["The selected coin is invalid."],
        webhook_url: ["The webhook url field is required."],
        addresses: ["The addresses field must have at least 1 items."],
      },
    });
    const tooLong = await create(edge, alice, { coin: "ETH", webhook_url: URL_OK, addresses: [ETH, "x".repeat(256)] });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors).toEqual({ "addresses.1": ["Each address must not be greater than 255 characters."] });
    const wrongCoin = await create(edge, alice, { coin: "ETH", webhook_url: URL_OK, addresses: [ETH, BTC, "0x12"] });
    expect(wrongCoin.body).toEqual({
      message: "The addresses.1 field must be a valid ETH address. (and 1 more error)",
      errors: {
        "addresses.1": ["The addresses.1 field must be a valid ETH address."],
        "addresses.2": ["The addresses.2 field must be a valid ETH address."],
      },
    });
    // Malformed JSON is the shared HTTP layer's 400 (packages/http), before any validation.
    expect((await create(edge, alice, "{not json")).status).toBe(400);
    expect(
      (await create(edge, alice, { coin: "BTC", webhook_url: URL_OK, addresses: Array.from({ length: 10_001 }, () => BTC) })).status,
    ).toBe(422);
    expect(await countRows(database, "webhooks")).toBe(before);
  });

  it("answers 404 {message} for the test event of a webhook that is not the caller's", async ({ edge }) => {
    const created = await create(edge, alice, { coin: "BTC", webhook_url: URL_OK, addresses: [BTC] });
    expect(await call(edge, "POST", `/api/v1/webhooks/${created.body.data!.id}/test`, bob)).toMatchObject({
      status: 404,
      body: { message: expect.any(String) },
    });
  });
});

describe("POST /api/v1/webhooks: the checks of webhook_url", () => {
  it("names every invalid field at once: the URL's checks run even when other fields already failed", async ({ edge, database }) => {
    const before = await countRows(database, "webhooks");
    const { status, body } = await create(edge, alice, { coin: "DOGE", webhook_url: "not a url", addresses: [] });
    expect(status).toBe(422);
    expect(body.message).toBe("The selected coin is invalid. (and 2 more errors)");
    expect(body.errors).toEqual({
      coin: ["The selected coin is invalid."],
      webhook_url: ["The webhook url must be a valid http or https URL."],
      addresses: ["The addresses field must have at least 1 items."],
    });
    // The address check of the URL too, on create and on update.
    const internal = await create(edge, alice, { coin: "BTC", webhook_url: "http://127.0.0.1/hook", addresses: [], confirmations: "six" });
    expect(Object.keys(internal.body.errors as object).sort()).toEqual(["addresses", "confirmations", "webhook_url"]);
    const created = await create(edge, alice, { coin: "BTC", webhook_url: URL_OK, addresses: [BTC] });
    const update = await call(edge, "PUT", `/api/v1/webhooks/${created.body.data!.id}`, alice, {
      webhook_url: "ftp://example.com/",
      is_active: "maybe",
    });
    expect(update.status).toBe(422);
    expect(Object.keys(update.body.errors as object).sort()).toEqual(["is_active", "webhook_url"]);
    expect(await countRows(database, "webhooks")).toBe(before + 1);
  });

  it.for([
    ["loopback", "http://127.0.0.1/"],
    ["a name resolving to 127.0.0.1", "http://localhost:8080/"],
    ["private", "http://10.0.0.5/"],
    ["link-local metadata", "http://169.254.169.254/latest/meta-data"],
    ["CGNAT", "http://100.64.1.1/"],
    ["multicast", "http://224.0.0.251/"],
    ["unspecified", "http://0.0.0.0/"],
    ["IPv6 loopback", "http://[::1]/"],
    ["IPv4-mapped IPv6", "http://[::ffff:127.0.0.1]/"],
    ["IPv6 unique local", "http://[fd12::1]/"],
  ])("refuses a webhook_url on %s with 422, nothing stored", async ([, url], { edge, database }) => {
    const before = await countRows(database, "webhooks");
    const { status, body } = await create(edge, alice, { coin: "BTC", webhook_url: url, addresses: [BTC] });
    expect(status).toBe(422);
    expect(body.errors).toEqual({ webhook_url: [URL_NOT_PUBLIC] });
    expect(await countRows(database, "webhooks")).toBe(before);
  });
});

describe("confirmations and include_tokens", () => {
  it("are stored on create and PUT, returned by every answer and carried to the scanner", async ({ edge, watchFeed: observer }) => {
    const { status, body } = await create(edge, alice, {
      coin: "ETH",
      webhook_url: URL_OK,
      addresses: [ETH],
      confirmations: 12,
      include_tokens: true,
    });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({ confirmations: 12, include_tokens: true });
    const id = body.data!.id as number;
    expect((await call(edge, "GET", `/api/v1/webhooks/${id}`, alice)).body.data).toMatchObject({ confirmations: 12, include_tokens: true });
    await expect.poll(() => latestChange(observer, id), { timeout: 10_000 }).toMatchObject({ confirmations: 12, include_tokens: true });
    const put = await call(edge, "PUT", `/api/v1/webhooks/${id}`, alice, { confirmations: 64, include_tokens: false });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ confirmations: 64, include_tokens: false, addresses: [ETH.toLowerCase()] });
    await expect.poll(() => latestChange(observer, id), { timeout: 10_000 }).toMatchObject({ confirmations: 64, include_tokens: false });
    const listed = (await call(edge, "GET", "/api/v1/webhooks?per_page=500", alice)).body.data!.find((w) => w.id === id);
    expect(listed).toMatchObject({ confirmations: 64, include_tokens: false });
  });

  it("default to 1 and to what the chain reports: false for ETH and BTC, true for TRX (a PUT may send the value back)", async ({
    edge,
  }) => {
    const eth = await create(edge, alice, { coin: "ETH", webhook_url: URL_OK, addresses: [ETH] });
    const btc = await create(edge, alice, { coin: "BTC", webhook_url: URL_OK, addresses: [BTC] });
    const trx = await create(edge, alice, { coin: "TRX", webhook_url: URL_OK, addresses: ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"] });
    expect(eth.body.data).toMatchObject({ confirmations: 1, include_tokens: false });
    expect(btc.body.data).toMatchObject({ confirmations: 1, include_tokens: false });
    expect(trx.body.data).toMatchObject({ confirmations: 1, include_tokens: true });
    const echoed = await call(edge, "PUT", `/api/v1/webhooks/${trx.body.data!.id}`, alice, { confirmations: 30, include_tokens: true });
    expect(echoed.status).toBe(200);
    expect(echoed.body.data).toMatchObject({ confirmations: 30, include_tokens: true });
  });

  it("422 in the spec's shape for a value out of range or of the wrong type, per coin; nothing stored or changed", async ({
    edge,
    database,
  }) => {
    const before = await countRows(database, "webhooks");
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ coin: "ETH", confirmations: 65 }, { confirmations: ["The confirmations field must not be greater than 64 for ETH webhooks."] }],
      [{ coin: "TRX", confirmations: 31 }, { confirmations: ["The confirmations field must not be greater than 30 for TRX webhooks."] }],
      [{ coin: "BTC", confirmations: 101 }, { confirmations: ["The confirmations field must not be greater than 100 for BTC webhooks."] }],
      [{ coin: "BTC", confirmations: 0 }, { confirmations: ["The confirmations field must be at least 1."] }],
      [{ coin: "BTC", confirmations: 2.5 }, { confirmations: ["The confirmations field must be an integer."] }],
      [{ coin: "BTC", confirmations: "3" }, { confirmations: ["The confirmations field must be an integer."] }],
      [{ coin: "BTC", confirmations: 1e300 }, { confirmations: ["The confirmations field must be an integer."] }],
      [{ coin: "ETH", include_tokens: "yes" }, { include_tokens: ["The include tokens field must be true or false."] }],
      [
        { coin: "BTC", include_tokens: true },
        { include_tokens: ["The include tokens field must be false for BTC webhooks: the chain has no tokens."] },
      ],
      [
        { coin: "TRX", include_tokens: false },
        { include_tokens: ["The include tokens field must be true for TRX webhooks: TRC-10 and TRC-20 transfers are always reported."] },
      ],
    ];
    const addressOf = { BTC, ETH, TRX: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" } as const;
    for (const [fields, errors] of cases) {
      const answer = await create(edge, alice, {
        webhook_url: URL_OK,
        addresses: [addressOf[fields.coin as keyof typeof addressOf]],
        ...fields,
      });
      expect(answer.status, JSON.stringify(fields)).toBe(422);
      expect(answer.body).toEqual({ message: Object.values(errors)[0]![0], errors });
    }
    expect(await countRows(database, "webhooks")).toBe(before);
    const { body } = await create(edge, alice, { coin: "ETH", webhook_url: URL_OK, addresses: [ETH], confirmations: 3 });
    const id = body.data!.id as number;
    const refused = await call(edge, "PUT", `/api/v1/webhooks/${id}`, alice, { confirmations: 100, is_active: false });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ confirmations: ["The confirmations field must not be greater than 64 for ETH webhooks."] });
    expect((await call(edge, "PUT", `/api/v1/webhooks/${id}`, alice, { include_tokens: null })).body.errors).toEqual({
      include_tokens: ["The include tokens field must be true or false."],
    });
    expect((await call(edge, "GET", `/api/v1/webhooks/${id}`, alice)).body.data).toMatchObject({
      confirmations: 3,
      include_tokens: false,
      is_active: 1,
    });
  });
});

describe("pending (mempool events, issue #29)", () => {
  it("defaults to false; stored on create and PUT, returned by every answer, carried to the scanner under a new version", async ({
    edge,
    watchFeed: observer,
  }) => {
    const plain = await create(edge, alice, { coin: "ETH", webhook_url: URL_OK, addresses: [ETH] });
    expect(plain.body.data).toMatchObject({ pending: false });
    await expect.poll(() => latestChange(observer, plain.body.data!.id as number), { timeout: 10_000 }).toMatchObject({ pending: false });
    const { status, body } = await create(edge, alice, { coin: "BTC", webhook_url: URL_OK, addresses: [BTC], pending: true });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({ pending: true });
    const id = body.data!.id as number;
    expect((await call(edge, "GET", `/api/v1/webhooks/${id}`, alice)).body.data).toMatchObject({ pending: true });
    await expect.poll(() => latestChange(observer, id), { timeout: 10_000 }).toMatchObject({ pending: true });
    for (const pending of [false, true]) {
      const before = latestChange(observer, id)!.version;
      const put = await call(edge, "PUT", `/api/v1/webhooks/${id}`, alice, { pending });
      expect(put.status).toBe(200);
      expect(put.body.data).toMatchObject({ pending, addresses: [BTC] });
      await expect.poll(() => latestChange(observer, id)?.pending, { timeout: 10_000 }).toBe(pending);
      expect(latestChange(observer, id)!.version).toBeGreaterThan(before);
    }
    const listed = (await call(edge, "GET", "/api/v1/webhooks?per_page=500", alice)).body.data!.find((w) => w.id === id);
    expect(listed).toMatchObject({ pending: true });
  });

  it("422 in the spec's shape for true on TRX (no public mempool) or a non-boolean; false accepted for TRX", async ({ edge, database }) => {
    const TRX = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
    const noMempool = "The pending field must be false for TRX webhooks: Tron nodes have no public mempool.";
    const before = await countRows(database, "webhooks");
    const refused = await create(edge, alice, { coin: "TRX", webhook_url: URL_OK, addresses: [TRX], pending: true });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: noMempool, errors: { pending: [noMempool] } });
    const notBoolean = await create(edge, alice, { coin: "ETH", webhook_url: URL_OK, addresses: [ETH], pending: "yes" });
    expect(notBoolean.status).toBe(422);
    expect(notBoolean.body.errors).toEqual({ pending: ["The pending field must be true or false."] });
    expect(await countRows(database, "webhooks")).toBe(before);
    const trx = await create(edge, alice, { coin: "TRX", webhook_url: URL_OK, addresses: [TRX], pending: false });
    expect(trx.status).toBe(201);
    expect(trx.body.data).toMatchObject({ pending: false });
    const id = trx.body.data!.id as number;
    const put = await call(edge, "PUT", `/api/v1/webhooks/${id}`, alice, { pending: true, is_active: false });
    expect(put.status).toBe(422);
    expect(put.body.errors).toEqual({ pending: [noMempool] });
    expect((await call(edge, "GET", `/api/v1/webhooks/${id}`, alice)).body.data).toMatchObject({ pending: false, is_active: 1 });
  });
});

describe("the other registry endpoints", () => {
  it("list pages the account's own webhooks in id order with meta; deleted ones never return", async ({ edge }) => {
    const carol = newAccount();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await create(edge, carol, { coin: "TRX", webhook_url: URL_OK, addresses: ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"] })).body.data!
          .id as number,
      );
    const page2 = await call(edge, "GET", "/api/v1/webhooks?per_page=2&page=2", carol);
    expect(page2.status).toBe(200);
    expect(page2.body.data!.map((w) => w.id)).toEqual([ids[2]]);
    expect(page2.body.meta).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2 });
    expect(page2.body.data![0]!.is_active).toBe(1);
    expect((await call(edge, "DELETE", `/api/v1/webhooks/${ids[1]}`, carol)).status).toBe(204);
    expect((await call(edge, "GET", "/api/v1/webhooks", carol)).body.data!.map((w) => w.id)).toEqual([ids[0], ids[2]]);
    expect((await call(edge, "GET", `/api/v1/webhooks/${ids[1]}`, carol)).status).toBe(404);
    expect((await call(edge, "GET", "/api/v1/webhooks?per_page=501", carol)).status).toBe(422);
  });

  it("PUT is partial: sent fields replace, others are kept; coin cannot change", async ({ edge }) => {
    const { body } = await create(edge, alice, { coin: "BTC", webhook_url: URL_OK, addresses: [BTC], is_active: false });
    const id = body.data!.id as number;
    const put = await call(edge, "PUT", `/api/v1/webhooks/${id}`, alice, {
      is_active: true,
      addresses: ["3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"],
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      id,
      webhook_url: URL_OK,
      is_active: 1,
      addresses: ["3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"],
      secret: body.data!.secret,
      coin: "BTC",
    });
    const bad = await call(edge, "PUT", `/api/v1/webhooks/${id}`, alice, { webhook_url: "http://192.168.1.1/" });
    expect(bad.status).toBe(422);
    expect((await call(edge, "GET", `/api/v1/webhooks/${id}`, alice)).body.data!.webhook_url).toBe(URL_OK);
  });

  it("rotating the secret answers the webhook with a new whsec_ secret, kept on later reads", async ({ edge }) => {
    const { body } = await create(edge, alice, { coin: "BTC", webhook_url: URL_OK, addresses: [BTC] });
    const id = body.data!.id as number;
    const rotated = await call(edge, "POST", `/api/v1/webhooks/${id}/secret`, alice);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data!.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(rotated.body.data!.secret).not.toBe(body.data!.secret);
    expect((await call(edge, "GET", `/api/v1/webhooks/${id}`, alice)).body.data!.secret).toBe(rotated.body.data!.secret);
  });

  it("adds and removes addresses in batches; duplicates and unknown ones are ignored", async ({ edge }) => {
    const { body } = await create(edge, alice, { coin: "ETH", webhook_url: URL_OK, addresses: [ETH] });
    const id = body.data!.id as number;
    const batch = Array.from({ length: 2_000 }, (_, i) => `0x${i.toString(16).padStart(40, "0")}`);
    const added = await call(edge, "POST", `/api/v1/webhooks/${id}/addresses`, alice, {
      addresses: [...batch, ETH.toUpperCase().replace("0X", "0x")],
    });
    expect(added.body).toEqual({ data: { added: 2_000, total: 2_001 } });
    const removed = await call(edge, "DELETE", `/api/v1/webhooks/${id}/addresses`, alice, { addresses: [ETH, "0x" + "f".repeat(40)] });
    expect(removed.body).toEqual({ data: { removed: 1, total: 2_000 } });
    expect(((await call(edge, "GET", `/api/v1/webhooks/${id}`, alice)).body.data!.addresses as unknown as string[]).length).toBe(2_000);
    expect((await call(edge, "POST", `/api/v1/webhooks/${id}/addresses`, alice, { addresses: ["nope"] })).status).toBe(422);
  });

  it("another account's webhook is a 404 with the same body as a missing one, for every endpoint", async ({ edge }) => {
    const { body } = await create(edge, alice, { coin: "BTC", webhook_url: URL_OK, addresses: [BTC] });
    const id = body.data!.id as number;
    const missing = 99_999_999;
    for (const [method, suffix, payload] of [
      ["GET", "", undefined],
      ["PUT", "", { is_active: false }],
      ["DELETE", "", undefined],
      ["POST", "/secret", undefined],
      ["POST", "/addresses", { addresses: [BTC] }],
      ["DELETE", "/addresses", { addresses: [BTC] }],
    ] as const) {
      const theirs = await call(edge, method, `/api/v1/webhooks/${id}${suffix}`, bob, payload);
      const none = await call(edge, method, `/api/v1/webhooks/${missing}${suffix}`, bob, payload);
      expect(theirs.status).toBe(404);
      expect(none.status).toBe(404);
      expect(theirs.body).toEqual({ message: `No webhook with id ${id} was found.` });
      expect(none.body).toEqual({ message: `No webhook with id ${missing} was found.` });
    }
    expect((await call(edge, "GET", "/api/v1/webhooks", bob)).body.data).toEqual([]);
    expect((await call(edge, "GET", `/api/v1/webhooks/${id}`, alice)).body.data!.secret).toBe(body.data!.secret);
  });
});
