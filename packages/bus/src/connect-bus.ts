/**
 * NATS JetStream for chaingate's events: idempotent stream and consumer set-up, typed publish with
 * a deterministic `Nats-Msg-Id`, and durable pull consumption that acks only after the handler
 * stored its effect (one message at a time, or in batches for a consumer that stores many events
 * in one statement).
 */
import { context, SpanKind, SpanStatusCode, trace, type Context, type Span } from "@opentelemetry/api";
import { ChaingateError } from "@chaingate/errors";
import type { EventContract, EventPayload, StreamOptions } from "@chaingate/contracts";
import {
  AckPolicy,
  connect,
  DeliverPolicy,
  headers as createHeaders,
  nanos,
  RetentionPolicy,
  StorageType,
  type ConsumerConfig,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
} from "nats";
import { extractTraceContext, injectTraceContext } from "./trace-headers.ts";

/** Long enough to cover a crashed scanner's restart and re-scan: its republishes are dropped. */
export const DUPLICATE_WINDOW_MS = 60 * 60 * 1000;
export const STREAM_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
export const DEFAULT_ACK_WAIT_MS = 30_000;
/** Redelivery delay after a retryable failure doubles per attempt up to this. */
export const MAX_REDELIVERY_DELAY_MS = 60_000;
const FIRST_REDELIVERY_DELAY_MS = 1_000;
/** A consume loop that lost its subscription tries again after at most this. */
const MAX_RESUBSCRIBE_DELAY_MS = 10_000;
const PULL_EXPIRES_MS = 10_000;
const PULL_HEARTBEAT_MS = 2_500;
/** Events handed to a batch handler at once, unless the consumer asks for another cap. */
export const DEFAULT_MAX_BATCH = 256;

const tracer = trace.getTracer("@chaingate/bus");
/**
 * A compare-and-set publish that keeps losing gives up after this many tries. Each loss means
 * another publisher landed, so with fewer concurrent publishers of one subject than this none
 * gives up.
 */
const CONDITIONAL_PUBLISH_ATTEMPTS = 20;

/** The narrow logger the bus needs (pino satisfies it). */
export interface BusLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

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

export interface MessageInfo {
  subject: string;
  messageId: string | undefined;
  /** 1 on the first delivery. */
  deliveryCount: number;
  streamSequence: number;
}

export interface ConsumeOptions<Contract extends EventContract> {
  /** Durable consumer name; replicas sharing it share the work. */
  durable: string;
  /** Stores the event's effect; the message is acked only after it resolves. */
  handle(payload: EventPayload<Contract>, info: MessageInfo): Promise<void>;
  /** Only some coins, e.g. "transfer.matched.btc"; defaults to every subject of the stream. */
  filterSubject?: string;
  ackWaitMs?: number;
  /**
   * Most messages handed out and not yet acked, across every replica sharing the durable. 1 makes
   * the handling strictly sequential in stream order (the server's default is 1,000).
   */
  maxAckPending?: number;
}

/** One event of a batch, with the context its effect continues (see `consumeBatches`). */
export interface BatchItem<Contract extends EventContract> {
  payload: EventPayload<Contract>;
  info: MessageInfo;
  /** A consumer span of this message, child of the publisher's context from its headers. */
  context: Context;
}

export interface ConsumeBatchesOptions<Contract extends EventContract> {
  /** Durable consumer name; replicas sharing it share the work. */
  durable: string;
  /**
   * Stores the effect of every event of the batch; all are acked only after it resolves. When it
   * throws, all are redelivered later (terminated instead for a non-retryable ChaingateError).
   */
  handleBatch(items: BatchItem<Contract>[]): Promise<void>;
  /** At most this many events per call (default DEFAULT_MAX_BATCH). */
  maxBatch?: number;
  filterSubject?: string;
  ackWaitMs?: number;
}

export interface Consumption {
  stop(): Promise<void>;
  /** Resolves when the consume loop has ended. */
  done: Promise<void>;
}

export interface PublishResult {
  duplicate: boolean;
  sequence: number;
}

export interface ConsumerProgress {
  /** Messages not yet acknowledged: waiting plus handed out (0 = caught up right now). */
  pending: number;
  /** Every message up to this stream sequence is acknowledged. */
  ackedThrough: number;
  /** The stream's newest sequence. */
  streamLastSequence: number;
}

export interface ConditionalPublishResult {
  /** False when the subject already held a message at least as new (nothing was published). */
  published: boolean;
}

export interface Bus {
  connection: NatsConnection;
  jetstream: JetStreamClient;
  manager: JetStreamManager;
  ensureStreams(contracts: readonly EventContract[]): Promise<void>;
  publish<Contract extends EventContract>(contract: Contract, payload: EventPayload<Contract>): Promise<PublishResult>;
  /**
   * Publishes `payload` only if it is newer (by `version`) than the last message stored on its
   * subject, as a compare-and-set on the subject's last sequence: a slower publisher holding an
   * older state can never land after a newer one, so a compacted stream (one message per subject)
   * never goes back in time, whatever publishers race or stall.
   */
  publishIfNewer<Contract extends EventContract>(contract: Contract, payload: EventPayload<Contract>, version: (payload: EventPayload<Contract>) => number): Promise<ConditionalPublishResult>;
  /**
   * Removes every stored message on the subjects matching `subjectFilter` (wildcards allowed,
   * namespace added) from the contract's stream, message by message. Returns how many. Not a
   * stream purge: on nats-server 2.9 a purge with a subject filter moves every consumer of the
   * stream that has not caught up past ALL pending messages, matching or not (measured with
   * 2.9.10: a consumer 22 messages behind received none of them); deleting messages one by one
   * leaves the others alone.
   */
  removeSubjects(contract: EventContract, subjectFilter: string): Promise<number>;
  consume<Contract extends EventContract>(contract: Contract, options: ConsumeOptions<Contract>): Promise<Consumption>;
  /**
   * Like `consume`, but hands the handler every message that is waiting (up to `maxBatch`) at once:
   * while one batch is being stored the next gathers, so a quiet stream still sees batches of one
   * (no added latency) and a busy one pays one store per batch instead of one per event.
   */
  consumeBatches<Contract extends EventContract>(contract: Contract, options: ConsumeBatchesOptions<Contract>): Promise<Consumption>;
  /** Where a durable consumer stands in its stream (see ConsumerProgress). */
  consumerProgress(contract: EventContract, durable: string): Promise<ConsumerProgress>;
  /** Throws unless the connection is up; used by `/readyz`. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export async function connectBus(options: BusOptions): Promise<Bus> {
  const { logger } = options;
  // Reconnects forever; a service started while NATS is down waits for it instead of exiting.
  const servers = options.url.split(",").map((server) => server.trim()).filter(Boolean);
  const connection = await connect({ servers, name: options.name, maxReconnectAttempts: -1, waitOnFirstConnect: true });
  void logConnectionStatus(connection, logger);
  // JetStream may not answer yet (a cluster still electing its leader): give the connection back.
  const manager = await connection.jetstreamManager().catch(async (error: unknown) => {
    await connection.close();
    throw error;
  });
  const jetstream = connection.jetstream();
  const namespace = options.namespace ? `${options.namespace}.` : "";
  const streamName = (contract: EventContract) => (options.namespace ? `${options.namespace}_${contract.stream}` : contract.stream);
  const subjectOf = (subject: string) => `${namespace}${subject}`;

  async function ensureStreams(contracts: readonly EventContract[]): Promise<void> {
    const streams = new Map<string, { subjects: Set<string>; options: StreamOptions; from: string }>();
    for (const contract of contracts) {
      const name = streamName(contract);
      const streamOptions = contract.streamOptions ?? {};
      const stream = streams.get(name) ?? { subjects: new Set<string>(), options: streamOptions, from: contract.name };
      if (JSON.stringify(stream.options) !== JSON.stringify(streamOptions)) {
        throw new Error(`Contracts ${stream.from} and ${contract.name} share stream ${contract.stream} but ask for different stream options`);
      }
      for (const subject of [contract.streamSubjects, ...(streamOptions.subjects ?? [])]) stream.subjects.add(subjectOf(subject));
      streams.set(name, stream);
    }
    for (const [name, { subjects, options: streamOptions }] of streams) {
      const config = {
        name,
        subjects: [...subjects],
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        max_age: nanos(streamOptions.maxAgeMs ?? STREAM_MAX_AGE_MS),
        // -1 is the server's "no limit".
        max_msgs_per_subject: streamOptions.maxMsgsPerSubject ?? -1,
        duplicate_window: nanos(DUPLICATE_WINDOW_MS),
        num_replicas: options.streamReplicas ?? 1,
      };
      const existing = await manager.streams.info(name).then(
        (info) => info,
        (error: unknown) => (isNotFound(error) ? undefined : Promise.reject(error)),
      );
      // Subjects are only ever added: a process that knows some of a stream's contracts (a test
      // publisher, an older release) must not take the others' subjects away.
      if (existing) await manager.streams.update(name, { ...config, subjects: [...new Set([...existing.config.subjects, ...subjects])] });
      else await manager.streams.add(config);
    }
  }

  async function publish<Contract extends EventContract>(contract: Contract, payload: EventPayload<Contract>): Promise<PublishResult> {
    const valid = contract.schema.parse(payload) as EventPayload<Contract>;
    const headers = createHeaders();
    injectTraceContext(headers);
    const ack = await jetstream.publish(subjectOf(contract.subject(valid)), JSON.stringify(valid), {
      msgID: contract.messageId(valid),
      headers,
    });
    return { duplicate: ack.duplicate, sequence: ack.seq };
  }

  async function publishIfNewer<Contract extends EventContract>(
    contract: Contract,
    payload: EventPayload<Contract>,
    version: (payload: EventPayload<Contract>) => number,
  ): Promise<ConditionalPublishResult> {
    const valid = contract.schema.parse(payload) as EventPayload<Contract>;
    const subject = subjectOf(contract.subject(valid));
    for (let attempt = 1; ; attempt++) {
      const last = await manager.streams.getMessage(streamName(contract), { last_by_subj: subject }).catch((error: unknown) => (isNoMessage(error) ? undefined : Promise.reject(error)));
      if (last && version(last.json<EventPayload<Contract>>()) >= version(valid)) return { published: false };
      const headers = createHeaders();
      injectTraceContext(headers);
      try {
        // The server refuses the message if anything landed on the subject since `last` was read.
        await jetstream.publish(subject, JSON.stringify(valid), { msgID: contract.messageId(valid), headers, expect: { lastSubjectSequence: last?.seq ?? 0 } });
        return { published: true };
      } catch (error) {
        if (!isWrongLastSequence(error) || attempt >= CONDITIONAL_PUBLISH_ATTEMPTS) throw error;
      }
    }
  }

  async function removeSubjects(contract: EventContract, subjectFilter: string): Promise<number> {
    const stream = streamName(contract);
    const { state } = await manager.streams.info(stream, { subjects_filter: subjectOf(subjectFilter) });
    let removed = 0;
    for (const subject of Object.keys(state.subjects ?? {})) {
      for (;;) {
        const last = await manager.streams.getMessage(stream, { last_by_subj: subject }).catch((error: unknown) => (isNoMessage(error) ? undefined : Promise.reject(error)));
        if (!last) break;
        // Without erasing (overwriting the bytes on disk): the message is gone for every reader.
        if (await manager.streams.deleteMessage(stream, last.seq, false)) removed++;
      }
    }
    return removed;
  }

  /** Where a durable consumer reads, and how long an unacked message waits before redelivery. */
  interface ConsumerTarget {
    durable: string;
    filterSubject?: string | undefined;
    ackWaitMs?: number | undefined;
    /** See ConsumeOptions.maxAckPending. */
    maxAckPending?: number | undefined;
  }

  /**
   * Creates (or updates) the durable consumer and feeds its messages to `drain` until stopped. The
   * loop outlives NATS restarts and a deleted consumer: an iterator that ends or throws is logged
   * and replaced after a back-off, never left as an unhandled rejection.
   */
  async function runConsumer(
    contract: EventContract,
    target: ConsumerTarget,
    drain: (messages: ConsumerMessages) => Promise<void>,
    pull: { max_messages?: number } = {},
  ): Promise<Consumption> {
    const stream = streamName(contract);
    const config: Partial<ConsumerConfig> = {
      durable_name: target.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(target.ackWaitMs ?? DEFAULT_ACK_WAIT_MS),
      filter_subject: subjectOf(target.filterSubject ?? contract.streamSubjects),
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
    let wakeUp: (() => void) | undefined;

    const done = (async () => {
      let failures = 0;
      while (!stopped) {
        try {
          if (failures > 0) await ensureConsumer();
          const consumer = await jetstream.consumers.get(stream, target.durable);
          // A deleted consumer or stream ends the iterator (instead of waiting for it forever), so
          // the loop re-creates it.
          // Short pulls with frequent heartbeats notice a lost consumer within seconds (servers
          // before 2.10 send no "consumer deleted" status).
          messages = await consumer.consume({ abort_on_missing_resource: true, expires: PULL_EXPIRES_MS, idle_heartbeat: PULL_HEARTBEAT_MS, ...pull });
          failures = 0;
          await drain(messages);
          if (stopped) break;
          logger.warn({ stream, durable: target.durable }, "event consumption ended; resubscribing");
        } catch (error) {
          if (stopped) break;
          logger.warn({ err: error, stream, durable: target.durable }, "event consumption failed; resubscribing");
        }
        failures++;
        const delay = Math.min(FIRST_REDELIVERY_DELAY_MS * 2 ** Math.min(failures - 1, 6), MAX_RESUBSCRIBE_DELAY_MS);
        await new Promise<void>((resolve) => {
          wakeUp = resolve;
          setTimeout(resolve, delay).unref();
        });
      }
    })();
    return {
      done,
      async stop() {
        stopped = true;
        wakeUp?.();
        await messages?.close();
        await done;
      },
    };
  }

  function consume<Contract extends EventContract>(contract: Contract, consumeOptions: ConsumeOptions<Contract>): Promise<Consumption> {
    const ackWaitMs = consumeOptions.ackWaitMs ?? DEFAULT_ACK_WAIT_MS;
    return runConsumer(contract, consumeOptions, async (messages) => {
      for await (const message of messages) {
        await handleMessage(contract, message, consumeOptions.handle, ackWaitMs);
      }
    });
  }

  function consumeBatches<Contract extends EventContract>(contract: Contract, batchOptions: ConsumeBatchesOptions<Contract>): Promise<Consumption> {
    const ackWaitMs = batchOptions.ackWaitMs ?? DEFAULT_ACK_WAIT_MS;
    const maxBatch = batchOptions.maxBatch ?? DEFAULT_MAX_BATCH;
    return runConsumer(
      contract,
      batchOptions,
      async (messages) => {
        const waiting: JsMsg[] = [];
        let storing: Promise<void> | undefined;
        // Runs after the messages that arrived together are all in `waiting`; ends (synchronously
        // clearing `storing`) the moment nothing waits, so the next message starts a new run.
        const storeWaiting = async () => {
          await new Promise((resolve) => setImmediate(resolve));
          try {
            while (waiting.length) await handleBatch(contract, waiting.splice(0, maxBatch), batchOptions.handleBatch, ackWaitMs);
          } finally {
            storing = undefined;
          }
        };
        for await (const message of messages) {
          waiting.push(message);
          storing ??= storeWaiting();
          // Back-pressure: stop pulling while two batches wait.
          if (waiting.length >= 2 * maxBatch) await storing;
        }
        // The iterator ended (stop, lost consumer): what was received is stored and acked first.
        await storing;
      },
      { max_messages: 2 * maxBatch },
    );
  }

  /** The message's payload, or undefined when it breaks its contract (then it is terminated). */
  function parseOrTerminate<Contract extends EventContract>(contract: Contract, message: JsMsg, info: MessageInfo): EventPayload<Contract> | undefined {
    try {
      return contract.schema.parse(message.json()) as EventPayload<Contract>;
    } catch (error) {
      // A payload that breaks its contract will never parse: keep it out of the redelivery loop.
      logger.error({ err: error, ...info }, "event does not match its contract: terminated");
      message.term();
      return undefined;
    }
  }

  async function handleMessage<Contract extends EventContract>(
    contract: Contract,
    message: JsMsg,
    handle: ConsumeOptions<Contract>["handle"],
    ackWaitMs: number,
  ): Promise<void> {
    const info = messageInfo(message);
    const payload = parseOrTerminate(contract, message, info);
    if (payload === undefined) return;
    // A handler slower than the ack deadline tells the server it is still working, so the
    // message is not redelivered to another replica while it is being handled.
    const keepAlive = setInterval(() => message.working(), Math.max(ackWaitMs / 3, 100));
    try {
      await context.with(extractTraceContext(message.headers), () => handle(payload, info));
      message.ack();
    } catch (error) {
      if (error instanceof ChaingateError && !error.retryable) {
        logger.error({ err: error, ...info }, "event handling failed for good: terminated");
        // No reason text: servers before 2.10 do not parse "+TERM <reason>" and would keep the
        // message pending, then redeliver it (the reason is in the log line above).
        message.term();
        return;
      }
      // Anything else may pass on a later try; losing the event is the one thing we never do.
      const delay = Math.min(FIRST_REDELIVERY_DELAY_MS * 2 ** (info.deliveryCount - 1), MAX_REDELIVERY_DELAY_MS);
      logger.warn({ err: error, ...info, redeliver_in_ms: delay }, "event handling failed: will redeliver");
      message.nak(delay);
    } finally {
      clearInterval(keepAlive);
    }
  }

  /** Never throws: every message ends acked, redelivered later or terminated. */
  async function handleBatch<Contract extends EventContract>(
    contract: Contract,
    messages: JsMsg[],
    handle: ConsumeBatchesOptions<Contract>["handleBatch"],
    ackWaitMs: number,
  ): Promise<void> {
    const items: Array<BatchItem<Contract> & { message: JsMsg; span: Span }> = [];
    for (const message of messages) {
      const info = messageInfo(message);
      const payload = parseOrTerminate(contract, message, info);
      if (payload === undefined) continue;
      // One consumer span per message, child of its publisher's context: the effect's own work
      // (a stored job, its later delivery) continues that message's trace, not the batch's.
      const parent = extractTraceContext(message.headers);
      const span = tracer.startSpan(`${contract.name} process`, { kind: SpanKind.CONSUMER, attributes: { "messaging.system": "nats", "messaging.destination.name": info.subject, "messaging.message.id": info.messageId ?? "" } }, parent);
      items.push({ payload, info, context: trace.setSpan(parent, span), message, span });
    }
    if (!items.length) return;
    const keepAlive = setInterval(() => items.forEach((item) => item.message.working()), Math.max(ackWaitMs / 3, 100));
    try {
      await handle(items.map(({ payload, info, context: itemContext }) => ({ payload, info, context: itemContext })));
      for (const item of items) item.message.ack();
    } catch (error) {
      const permanent = error instanceof ChaingateError && !error.retryable;
      for (const item of items) {
        item.span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        if (permanent) item.message.term();
        else item.message.nak(Math.min(FIRST_REDELIVERY_DELAY_MS * 2 ** (item.info.deliveryCount - 1), MAX_REDELIVERY_DELAY_MS));
      }
      if (permanent) logger.error({ err: error, count: items.length, first: items[0]!.info }, "event batch failed for good: terminated");
      else logger.warn({ err: error, count: items.length, first: items[0]!.info }, "event batch failed: will redeliver");
    } finally {
      clearInterval(keepAlive);
      for (const item of items) item.span.end();
    }
  }

  return {
    connection,
    jetstream,
    manager,
    ensureStreams,
    publish,
    publishIfNewer,
    removeSubjects,
    consume,
    consumeBatches,
    async consumerProgress(contract, durable) {
      const [consumer, stream] = await Promise.all([manager.consumers.info(streamName(contract), durable), manager.streams.info(streamName(contract))]);
      return { pending: consumer.num_pending + consumer.num_ack_pending, ackedThrough: consumer.ack_floor.stream_seq, streamLastSequence: stream.state.last_seq };
    },
    async ping() {
      if (connection.isClosed()) throw new Error("NATS connection closed");
      await connection.flush();
    },
    async close() {
      if (!connection.isClosed()) await connection.drain();
    },
  };
}

function messageInfo(message: JsMsg): MessageInfo {
  return {
    subject: message.subject,
    messageId: message.headers?.get("Nats-Msg-Id") || undefined,
    deliveryCount: message.info.redeliveryCount,
    streamSequence: message.seq,
  };
}

/** Disconnects and reconnects in the service's log: an operator sees the outage and its end. */
async function logConnectionStatus(connection: NatsConnection, logger: BusLogger): Promise<void> {
  for await (const status of connection.status()) {
    if (status.type === "disconnect" || status.type === "error") logger.warn({ nats: status.type, data: String(status.data) }, "NATS connection lost; reconnecting");
    else if (status.type === "reconnect") logger.info({ nats: status.type, data: String(status.data) }, "NATS connection re-established");
  }
}

/** 10037: the stream holds no message on that subject. */
function isNoMessage(error: unknown): boolean {
  return (error as { api_error?: { err_code?: number } }).api_error?.err_code === 10037;
}

/** 10071: a compare-and-set publish lost (the subject's last sequence moved). */
function isWrongLastSequence(error: unknown): boolean {
  return (error as { api_error?: { err_code?: number } }).api_error?.err_code === 10071 || /wrong last sequence/i.test(String((error as Error).message));
}

function isNotFound(error: unknown): boolean {
  const apiError = (error as { api_error?: { err_code?: number } }).api_error;
  // 10059 stream not found, 10014 consumer not found.
  return apiError?.err_code === 10059 || apiError?.err_code === 10014 || /not found/i.test(String((error as Error).message));
}
