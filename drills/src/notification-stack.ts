/**
 * The product as a client meets it, every service a real process: the gateway (webhook registry
 * through the public API), the delivery service (one or more replicas), the scanner following the
 * node peers it is given, and the client's receiver on loopback that checks each notification's
 * signature as docs/api.md tells subscribers to.
 */
import { randomBytes } from "node:crypto";
import { createAccountWithKey } from "@chaingate/gateway/testing";
import type { LitecoindRegtest } from "@chaingate/testing";
// By path: the delivery service's own test receiver and the verification snippet docs/api.md publishes.
import { startLocalReceiver, type LocalReceiver, type ReceivedRequest } from "@chaingate/delivery/testing";
import { verifyChaingateSignature } from "@chaingate/delivery/examples/verify-spec-signature";
import { waitUntilWatched, type ScannedCoin } from "./scanner-watch.ts";
import { createServiceStack, type ServiceStack } from "./service-stack.ts";

/** Path of the receiver that webhooks created here point at. */
export const RECEIVER_PATH = "/deposits";

export interface NotificationStackOptions {
  /** Shared by every service (each keeps its own schema). */
  databaseUrl: string;
  /** Default `NATS_URL`; drills that restart NATS pass a private one. */
  natsUrl?: string;
  bitcoin?: LitecoindRegtest;
  ethereumUrl?: string;
  tronUrl?: string;
  /** Delivery processes sharing the work (named `delivery-1`, `delivery-2`, …); default 1. */
  deliveryReplicas?: number;
  /** Scanner processes competing for each chain's lease (`scanner`, then `scanner-2`, …); default 1. */
  scannerReplicas?: number;
  /** Starts the xpub service (addresses of this network) behind the gateway's `/api/v1/btc/xpub`. */
  xpubNetwork?: "mainnet" | "litecoin-regtest";
  /** Extra settings (tunables under test) for the scanner and for every delivery replica. */
  scannerEnv?: Record<string, string>;
  deliveryEnv?: Record<string, string>;
}

export interface CreatedWebhook {
  id: number;
  secret: string;
  /** As the registry stored them (ETH lower-cased). */
  addresses: string[];
  [field: string]: unknown;
}

/** A notification the receiver got: the parsed `transfer.matched` body and whether its signature verified. */
export interface ReceivedNotification {
  payload: Record<string, unknown> & { event_id: string; webhook_id: number; txid: string; position: number | null };
  signed: boolean;
  request: ReceivedRequest;
}

export interface NotificationStack {
  stack: ServiceStack;
  gatewayUrl: string;
  scannerUrl: string;
  receiver: LocalReceiver;
  /** An API key of the stack's account. */
  apiKey: string;
  /**
   * `POST /api/v1/webhooks` through the gateway (201 expected; `extra` fields are sent as they
   * are), then waits until the scanner watches it: a payment mined afterwards is notified.
   */
  createWebhook(coin: ScannedCoin, addresses: string[], extra?: Record<string, unknown>): Promise<CreatedWebhook>;
  /** One JSON call to the gateway with the stack's API key: its status and parsed body (null when empty). */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  /** Everything the receiver got for `webhook`, in arrival order, each checked against its secret. */
  notifications(webhook: CreatedWebhook): ReceivedNotification[];
  stop(): Promise<void>;
}

export async function startNotificationStack(options: NotificationStackOptions): Promise<NotificationStack> {
  const stack = createServiceStack();
  const receiver = await startLocalReceiver();
  try {
    const shared = {
      DATABASE_URL: options.databaseUrl,
      NATS_URL: options.natsUrl ?? process.env.NATS_URL!,
      NATS_NAMESPACE: `n${randomBytes(4).toString("hex")}`,
    };
    const { bitcoin } = options;
    const deliveryUrls: string[] = [];
    for (let replica = 1; replica <= (options.deliveryReplicas ?? 1); replica++) {
      deliveryUrls.push(
        await stack.start(`delivery-${replica}`, "delivery", {
          ...shared,
          BITCOIN_NETWORK: "litecoin-regtest",
          WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
          ...options.deliveryEnv,
        }),
      );
    }
    const scannerEnv = {
      ...shared,
      ...(bitcoin && { BTC_RPC_URL: bitcoin.rpcUrl, BTC_RPC_USER: bitcoin.rpcUser, BTC_RPC_PASSWORD: bitcoin.rpcPassword }),
      ...(options.ethereumUrl && { ETH_RPC_URL: options.ethereumUrl }),
      ...(options.tronUrl && { TRON_NODE_URL: options.tronUrl }),
      ...options.scannerEnv,
    };
    const scannerUrl = await stack.start("scanner", "scanner", scannerEnv);
    for (let replica = 2; replica <= (options.scannerReplicas ?? 1); replica++)
      await stack.start(`scanner-${replica}`, "scanner", scannerEnv);
    const xpubUrl = options.xpubNetwork && (await stack.start("xpub", "xpub", { ...shared, BITCOIN_NETWORK: options.xpubNetwork }));
    const gatewayUrl = await stack.start("gateway", "gateway", {
      DATABASE_URL: options.databaseUrl,
      DELIVERY_URL: deliveryUrls[0]!,
      ACCESS_LOG: "false",
      ...(xpubUrl && { XPUB_URL: xpubUrl }),
    });
    const { key: apiKey } = await createAccountWithKey(options.databaseUrl, `drill-${shared.NATS_NAMESPACE}`);

    return {
      stack,
      gatewayUrl,
      scannerUrl,
      receiver,
      apiKey,
      async createWebhook(coin, addresses, extra = {}) {
        const created = await fetch(`${gatewayUrl}/api/v1/webhooks`, {
          method: "POST",
          headers: { "x-api-key": apiKey, "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ coin, webhook_url: `${receiver.url}${RECEIVER_PATH}`, addresses, ...extra }),
        });
        if (created.status !== 201) throw new Error(`creating a ${coin} webhook answered ${created.status}: ${await created.text()}`);
        const webhook = ((await created.json()) as { data: CreatedWebhook }).data;
        await waitUntilWatched(options.databaseUrl, webhook.id);
        return webhook;
      },
      async api(method, path, body) {
        const answer = await fetch(`${gatewayUrl}${path}`, {
          method,
          headers: {
            "x-api-key": apiKey,
            accept: "application/json",
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await answer.text();
        return { status: answer.status, body: text ? (JSON.parse(text) as unknown) : null };
      },
      notifications(webhook) {
        return receiver.received.flatMap((request) => {
          const payload = JSON.parse(request.body) as ReceivedNotification["payload"];
          if (payload.webhook_id !== webhook.id) return [];
          return [{ payload, signed: verifyChaingateSignature(webhook.secret, request.headers, request.body), request }];
        });
      },
      async stop() {
        await stack.stop();
        await receiver.close();
      },
    };
  } catch (error) {
    await stack.stop();
    await receiver.close();
    throw error;
  }
}
