/**
 * The drill's webhooks and the extended key: one webhook watching the key's addresses from the
 * start, one naming the key later, one per account chain; and addresses issued as the drill goes.
 */
import type { CreatedWebhook } from "../notification-stack.ts";
import { payables, watch, ZPUB, type HostileDrill } from "./hostile-drill.ts";

export interface DrillWebhooks {
  xpubId: number;
  /** Issues the key's next address. */
  issue: () => Promise<string>;
  /** The client's own Bitcoin addresses: two on `btcAuto`, one on `btcLater`. */
  clientBtc: string[];
  btcAuto: CreatedWebhook;
  btcLater: CreatedWebhook;
  eth: CreatedWebhook;
  trx: CreatedWebhook;
  /** All of them, by name. */
  all: Record<string, CreatedWebhook>;
}

/** Registers the key and creates the webhooks, each address watched and payable. */
export async function setUpWebhooks(drill: HostileDrill): Promise<DrillWebhooks> {
  const { api, node, anvil, tron, product } = drill;
  // The extended key: one address issued before any webhook names it, the rest as the drill goes.
  const xpubId = (await api("POST", "/api/v1/btc/xpub", { xpub: ZPUB })).id as number;
  const issue = async () => (await api("POST", `/api/v1/btc/xpub/${xpubId}/address`)).address as string;
  const issuedBefore = await issue();
  const clientBtc = await Promise.all(Array.from({ length: 3 }, () => node.walletRpc<string>("getnewaddress")));
  const all: Record<string, CreatedWebhook> = {
    // Pending events too (issue #29): the mempool churns under the same faults.
    btcAuto: await product.createWebhook("BTC", clientBtc.slice(0, 2), { xpub_ids: [xpubId], pending: true }),
    btcLater: await product.createWebhook("BTC", clientBtc.slice(2), { pending: true }),
    eth: await product.createWebhook("ETH", [anvil.accounts[5]!.address, anvil.accounts[6]!.address]),
    trx: await product.createWebhook("TRX", [tron.devnode.genesis.accounts[1]!.base58, tron.devnode.genesis.accounts[2]!.base58]),
  };
  const { btcAuto, btcLater, eth, trx } = all as Record<"btcAuto" | "btcLater" | "eth" | "trx", CreatedWebhook>;
  for (const address of clientBtc.slice(0, 2)) watch(drill, address, btcAuto.id, "client");
  watch(drill, clientBtc[2]!, btcLater.id, "client");
  // Issued before the webhook named its key: watched from the webhook's creation on (issue 16 item 8).
  watch(drill, issuedBefore, btcAuto.id, "xpub issued before the webhook");
  for (const address of eth.addresses) watch(drill, address, eth.id, "client");
  for (const address of trx.addresses) watch(drill, address, trx.id, "client");
  payables(drill, "BTC", ...clientBtc, issuedBefore);
  payables(drill, "ETH", ...eth.addresses);
  payables(drill, "TRX", ...trx.addresses);
  drill.xpubWebhooks.push(btcAuto.id);
  return { xpubId, issue, clientBtc, btcAuto, btcLater, eth, trx, all };
}

/** Issues an address of the key, watched by every webhook naming the key from now on, and payable. */
export async function issueWatched(drill: HostileDrill, webhooks: DrillWebhooks, origin: string): Promise<void> {
  const address = await webhooks.issue();
  drill.performed.push(`${origin} at +${Date.now() - drill.started} ms`);
  for (const webhookId of drill.xpubWebhooks) watch(drill, address, webhookId, origin);
  payables(drill, "BTC", address);
}
