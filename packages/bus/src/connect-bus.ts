/**
 * NATS JetStream for chaingate's events: idempotent stream and consumer set-up, typed publish with
 * a deterministic `Nats-Msg-Id`, and durable pull consumption that acks only after the handler
 * stored its effect (one message at a time, or in batches for a consumer that stores many events
 * in one statement). This file connects and assembles; each concern lives in its own module.
 */
import type { EventContract, EventPayload } from "@chaingate/contracts";
import { connect } from "nats";
import { createBusAdmin, type BusAdmin } from "./bus-admin.ts";
import { waitUntilConsumed } from "./wait-until-consumed.ts";
import type { BusLogger } from "./bus-logger.ts";
import { createBusNaming } from "./bus-naming.ts";
import { consume, type ConsumeOptions } from "./consume.ts";
import { consumeBatches, type ConsumeBatchesOptions } from "./consume-batches.ts";
import { ensureStreams } from "./ensure-streams.ts";
import { logConnectionStatus } from "./log-connection-status.ts";
import { createPublisher, type ConditionalPublishResult, type PublishResult } from "./publish.ts";
import { removeSubjects } from "./remove-subjects.ts";
import type { Consumption } from "./run-consumer.ts";

export interface BusOptions {
  /** A server URL, or a comma-separated list of a cluster's servers. */
  url: string;
  /** Connection name shown by the NATS server, e.g. the service name. */
  name: string;
  logger: BusLogger;
  /** Prefixes every subject and stream name; isolates tests (and tenants) sharing one NATS. */
  namespace?: string;
  /** Copies of every stream this bus creates or updates (JetStream cluster: 3). Default 1. */
  streamReplicas?: number;
}

export interface ConsumerProgress {
  /** Messages not yet acknowledged: waiting plus handed out (0 = caught up right now). */
  pending: number;
  /** Every message up to this stream sequence is acknowledged. */
  ackedThrough: number;
  /** The stream's newest sequence. */
  streamLastSequence: number;
}

/** A core NATS subscription made with `Bus.onSignal`. */
export interface SignalSubscription {
  unsubscribe(): void;
}

export interface Bus {
  /**
   * Core NATS, for what is not an event (best effort, never stored: the scanner's block
   * announcements). `subject` is named as the contracts name theirs; the bus adds its namespace.
   * Throws when the connection is closed; while it reconnects, the signal waits in its buffer.
   */
  signal(subject: string, data: string): void;
  /** Calls `onSignal` for each signal on a subject matching `filter`, with the subject as it was signalled (no namespace). */
  onSignal(filter: string, onSignal: (subject: string, data: string) => void): SignalSubscription;
  /** Stream names, stream and consumer state, purges: for tests, benchmarks and tools. */
  admin: BusAdmin;
  ensureStreams(contracts: readonly EventContract[]): Promise<void>;
  publish<Contract extends EventContract>(contract: Contract, payload: EventPayload<Contract>): Promise<PublishResult>;
  /**
   * Publishes `payload` only if it is newer (by `version`) than the last message stored on its
   * subject, as a compare-and-set on the subject's last sequence: a slower publisher holding an
   * older state can never land after a newer one, so a compacted stream (one message per subject)
   * never goes back in time, whatever publishers race or stall.
   */
  publishIfNewer<Contract extends EventContract>(
    contract: Contract,
    payload: EventPayload<Contract>,
    version: (payload: EventPayload<Contract>) => number,
  ): Promise<ConditionalPublishResult>;
  /** See removeSubjects: the messages of matching subjects go, every consumer keeps the others. */
  removeSubjects(contract: EventContract, subjectFilter: string): Promise<number>;
  consume<Contract extends EventContract>(contract: Contract, options: ConsumeOptions<Contract>): Promise<Consumption>;
  /** See consumeBatches: every waiting event (up to `maxBatch`) handed over at once. */
  consumeBatches<Contract extends EventContract>(contract: Contract, options: ConsumeBatchesOptions<Contract>): Promise<Consumption>;
  /** Where a durable consumer stands in its stream (see ConsumerProgress). */
  consumerProgress(contract: EventContract, durable: string): Promise<ConsumerProgress>;
  /** See waitUntilConsumed: every message in the stream now is acknowledged by `durable`. */
  waitUntilConsumed(contract: EventContract, durable: string, options: { timeoutMs: number; pollMs?: number }): Promise<void>;
  /** Throws unless the connection is up; used by `/readyz`. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export async function connectBus(options: BusOptions): Promise<Bus> {
  const { logger } = options;
  // Reconnects forever; a service started while NATS is down waits for it instead of exiting.
  const servers = options.url
    .split(",")
    .map((server) => server.trim())
    .filter(Boolean);
  const connection = await connect({ servers, name: options.name, maxReconnectAttempts: -1, waitOnFirstConnect: true });
  void logConnectionStatus(connection, logger);
  // JetStream may not answer yet (a cluster still electing its leader): give the connection back.
  const manager = await connection.jetstreamManager().catch(async (error: unknown) => {
    await connection.close();
    throw error;
  });
  const jetstream = connection.jetstream();
  const naming = createBusNaming(options.namespace);
  const consumerDeps = { jetstream, manager, naming, logger };
  const publisher = createPublisher({ jetstream, manager, naming });

  async function consumerProgress(contract: EventContract, durable: string): Promise<ConsumerProgress> {
    const [consumer, stream] = await Promise.all([
      manager.consumers.info(naming.streamName(contract), durable),
      manager.streams.info(naming.streamName(contract)),
    ]);
    return {
      pending: consumer.num_pending + consumer.num_ack_pending,
      ackedThrough: consumer.ack_floor.stream_seq,
      streamLastSequence: stream.state.last_seq,
    };
  }

  const namespacePrefix = naming.subject("");
  return {
    signal: (subject, data) => connection.publish(naming.subject(subject), data),
    onSignal(filter, onSignal) {
      return connection.subscribe(naming.subject(filter), {
        callback: (error, message) => {
          if (!error) onSignal(message.subject.slice(namespacePrefix.length), message.string());
        },
      });
    },
    admin: createBusAdmin({ manager, jetstream, naming }),
    ensureStreams: (contracts) => ensureStreams({ manager, naming, replicas: options.streamReplicas ?? 1 }, contracts),
    publish: publisher.publish,
    publishIfNewer: publisher.publishIfNewer,
    removeSubjects: (contract, subjectFilter) => removeSubjects({ manager, naming }, contract, subjectFilter),
    consume: (contract, consumeOptions) => consume(consumerDeps, contract, consumeOptions),
    consumeBatches: (contract, batchOptions) => consumeBatches(consumerDeps, contract, batchOptions),
    consumerProgress,
    waitUntilConsumed: (contract, durable, options) => waitUntilConsumed(consumerProgress, contract, durable, options),
    async ping() {
      if (connection.isClosed()) throw new Error("NATS connection closed");
      await connection.flush();
    },
    async close() {
      if (!connection.isClosed()) await connection.drain();
    },
  };
}
