/**
 * One example body of each event type, as the OpenAPI document's `webhooks` show them. They parse
 * with their schemas (notification-examples.test.ts) and pass Redocly's example check. A USDT
 * deposit on Ethereum mainnet to an address chaingate issued, and what follows it in that
 * webhook's history.
 */
const WEBHOOK = 42;
const TOKEN_TX = "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060";
const BLOCK = {
  height: 21_000_000,
  hash: "0x9b83c12c69edb74f6c8dd5d052765c1adf940e320bd1291696e6fa07829eee71",
  time: "2024-10-18T12:34:47.000Z",
};

export const transferNotificationExample = {
  event_id: "evt_3f6c1d0b9a8e4c2f7d5b1a0e9c8d7f6a",
  type: "transfer",
  webhook_id: WEBHOOK,
  coin: "ETH",
  chain: "eip155:1",
  direction: "in",
  currency: "USDT",
  from: "0x28c6c06298d514db089934071355e5743bf21d60",
  to: "0x9f8a0c2d4e6b8a1c3e5f7a9b1d3f5e7a9c1b3d5f",
  watched_address: "0x9f8a0c2d4e6b8a1c3e5f7a9b1d3f5e7a9c1b3d5f",
  xpub: { id: 7, index: 12 },
  amount: "250.5",
  raw_amount: "250500000",
  decimals: 6,
  token_contract: "0xdac17f958d2ee523a2206206994597c13d831ec7",
  txid: TOKEN_TX,
  position: 0,
  internal: false,
  trace_address: null,
  block: BLOCK,
  execution_status: "SUCCESS",
  confirmations: 12,
  generation: 0,
  version: 1,
  sequence: 1834,
};

/** The same deposit while it was in the mempool, one event before its transfer. */
export const mempoolNotificationExample = {
  event_id: "evt_pnd_8d2f4a6c1e3b5d7f9a0c2e4b6d8f1a3c",
  type: "pending",
  webhook_id: WEBHOOK,
  coin: "ETH",
  chain: "eip155:1",
  direction: "in",
  currency: "USDT",
  from: "0x28c6c06298d514db089934071355e5743bf21d60",
  to: "0x9f8a0c2d4e6b8a1c3e5f7a9b1d3f5e7a9c1b3d5f",
  watched_address: "0x9f8a0c2d4e6b8a1c3e5f7a9b1d3f5e7a9c1b3d5f",
  xpub: { id: 7, index: 12 },
  amount: "250.5",
  raw_amount: "250500000",
  decimals: 6,
  token_contract: "0xdac17f958d2ee523a2206206994597c13d831ec7",
  txid: TOKEN_TX,
  position: 0,
  seen_at: "2024-10-18T12:34:41.250Z",
  replaceable: true,
  fee_rate: "12.5",
  conflicting_txid: null,
  generation: 0,
  version: 1,
  sequence: 1833,
};

export const coverageNotificationExample = {
  event_id: "evt_cov_42_eth_t5824211",
  type: "coverage",
  version: 1,
  webhook_id: WEBHOOK,
  sequence: 1835,
  coin: "ETH",
  chain: "eip155:1",
  block: {
    height: 21_000_011,
    hash: "0x1f0e8d6c4b2a09f8e7d6c5b4a3928170f6e5d4c3b2a1908f7e6d5c4b3a291807",
    time: "2024-10-18T12:37:00.000Z",
  },
  confirmed_height: 21_000_000,
};

export const deliveryExhaustedNotificationExample = {
  version: 1,
  event_id: "evt_op_311_42",
  webhook_id: WEBHOOK,
  sequence: 1836,
  created_at: "2024-10-19T16:02:10.000Z",
  type: "delivery.exhausted",
  subject: {
    webhook_id: 43,
    coin: "BTC",
    event_id: "evt_b07c5e2d1a9f8e7d6c5b4a3928170f6e",
    sequence: 977,
    attempts: 9,
    last_status: 503,
    last_error: null,
  },
};

export const webhookDisabledNotificationExample = {
  version: 1,
  event_id: "evt_op_312_42",
  webhook_id: WEBHOOK,
  sequence: 1837,
  created_at: "2024-10-19T16:02:11.000Z",
  type: "webhook.disabled",
  subject: { webhook_id: 43, coin: "BTC", failed_deliveries: 20, last_sequence: 990 },
};

export const testNotificationExample = {
  event_id: "test_1b4e28ba-2fa1-4d2b-883f-0016d3cca427",
  type: "test",
  test: true,
  version: 1,
  webhook_id: WEBHOOK,
  coin: "ETH",
  chain: null,
  currency: "ETH",
  from: null,
  to: "0x9f8a0c2d4e6b8a1c3e5f7a9b1d3f5e7a9c1b3d5f",
  watched_address: "0x9f8a0c2d4e6b8a1c3e5f7a9b1d3f5e7a9c1b3d5f",
  direction: "in",
  xpub: null,
  amount: "0",
  raw_amount: "0",
  decimals: 18,
  token_contract: null,
  txid: "0".repeat(64),
  position: null,
  internal: false,
  trace_address: null,
  block: { height: 0, hash: "0".repeat(64), time: "2024-10-18T12:40:00.000Z" },
  execution_status: "SUCCESS",
  confirmations: 1,
  generation: 0,
  created_at: "2024-10-18T12:40:00.000Z",
};
