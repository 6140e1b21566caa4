/**
 * The durable pull consumer under `consume` and `consumeBatches`: created (or updated) at start,
 * then fed to a drain function until stopped. The loop outlives NATS restarts and a deleted
 * consumer: an iterator that ends or throws is logged and replaced after a back-off, never left as
 * an unhandled rejection.
 */
import { backoffDelayMs, createWakeableSleep } from "@chaingate/backoff";
import type { EventContract } from "@chaingate/contracts";
import {
  AckPolicy,
  DeliverPolicy,
  nanos,
  type ConsumerConfig,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
} from "nats";
import type { BusLogger } from "./bus-logger.ts";
import type { BusNaming } from "./bus-naming.ts";
import { isNotFound } from "./nats-errors.ts";

export const DEFAULT_ACK_WAIT_MS = 30_000;
/** A consume loop that lost its subscription tries again after 1 s, doubling up to 10 s. */
const RESUBSCRIBE_BACKOFF = { firstMs: 1_000, maxMs: 10_000 };
const PULL_EXPIRES_MS = 10_000;
const PULL_HEARTBEAT_MS = 2_500;

/** What a consume loop works with. */
export interface ConsumerDeps {
  jetstream: JetStreamClient;
  manager: JetStreamManager;
  naming: BusNaming;
  logger: BusLogger;
}

/** Where a durable consumer reads, and how long an unacked message waits before redelivery. */
export interface ConsumerTarget {
  /** Durable consumer name; replicas sharing it share the work. */
  durable: string;
  /** Only some coins, e.g. "transfer.matched.btc"; defaults to every subject of the stream. */
  filterSubject?: string | undefined;
  ackWaitMs?: number | undefined;
  /**
   * Most messages handed out and not yet acked, across every replica sharing the durable. 1 makes
   * the handling strictly sequential in stream order (the server's default is 1,000).
   */
  maxAckPending?: number | undefined;
}

export interface Consumption {
  stop(): Promise<void>;
  /** Resolves when the consume loop has ended. */
  done: Promise<void>;
}

export async function runConsumer(
  { jetstream, manager, naming, logger }: ConsumerDeps,
  contract: EventContract,
  target: ConsumerTarget,
  drain: (messages: ConsumerMessages) => Promise<void>,
  pull: { max_messages?: number } = {},
): Promise<Consumption> {
  const stream = naming.streamName(contract);
  const config: Partial<ConsumerConfig> = {
    durable_name: target.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(target.ackWaitMs ?? DEFAULT_ACK_WAIT_MS),
    filter_subject: naming.subject(target.filterSubject ?? contract.streamSubjects),
    ...(target.maxAckPending === undefined ? {} : { max_ack_pending: target.maxAckPending }),
  };
  const ensureConsumer = () =>
    manager.consumers.info(stream, target.durable).then(
      () => manager.consumers.update(stream, target.durable, config),
      (error: unknown) => (isNotFound(error) ? manager.consumers.add(stream, config) : Promise.reject(error)),
    );
  await ensureConsumer();
  let stopped = false;
  let messages: ConsumerMessages | undefined;
  const pause = createWakeableSleep();

  const done = (async () => {
    let failures = 0;
    while (!stopped) {
      try {
        if (failures > 0) await ensureConsumer();
        const consumer = await jetstream.consumers.get(stream, target.durable);
        // A deleted consumer or stream ends the iterator (instead of waiting for it forever), so
        // the loop re-creates it. Short pulls with frequent heartbeats notice a lost consumer
        // within seconds (servers before 2.10 send no "consumer deleted" status).
        messages = await consumer.consume({
          abort_on_missing_resource: true,
          expires: PULL_EXPIRES_MS,
          idle_heartbeat: PULL_HEARTBEAT_MS,
          ...pull,
        });
        // Stopped while the pull was being set up: stop() found no messages to close, so nothing
        // else would ever end this iterator (a service closed right after it started hung here).
        if (stopped) {
          // close() settles only once the iterator sees the end: iterate it there, handing back
          // whatever was pulled meanwhile.
          void messages.close();
          for await (const message of messages) message.nak();
          break;
        }
        failures = 0;
        await drain(messages);
        if (stopped) break;
        logger.warn({ stream, durable: target.durable }, "event consumption ended; resubscribing");
      } catch (error) {
        if (stopped) break;
        logger.warn({ err: error, stream, durable: target.durable }, "event consumption failed; resubscribing");
      }
      failures++;
      await pause.sleep(backoffDelayMs(failures, RESUBSCRIBE_BACKOFF));
    }
  })();
  return {
    done,
    async stop() {
      stopped = true;
      pause.wake();
      await messages?.close();
      await done;
    },
  };
}
