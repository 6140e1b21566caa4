/**
 * Like `consume`, but hands the handler every message that is waiting (up to `maxBatch`) at once:
 * while one batch is being stored the next gathers, so a quiet stream still sees batches of one
 * (no added latency) and a busy one pays one store per batch instead of one per event.
 */
import { SpanKind, SpanStatusCode, trace, type Context, type Span } from "@opentelemetry/api";
import type { EventContract, EventPayload } from "@chaingate/contracts";
import type { JsMsg } from "nats";
import { DEFAULT_ACK_WAIT_MS, runConsumer, type ConsumerDeps, type ConsumerTarget, type Consumption } from "./run-consumer.ts";
import { keepWorking, messageInfo, parseOrTerminate, settleFailure, type MessageInfo } from "./settle-message.ts";
import { extractTraceContext } from "./trace-headers.ts";

/** Events handed to a batch handler at once, unless the consumer asks for another cap. */
export const DEFAULT_MAX_BATCH = 256;

const tracer = trace.getTracer("@chaingate/bus");

/** One event of a batch, with the context its effect continues. */
export interface BatchItem<Contract extends EventContract> {
  payload: EventPayload<Contract>;
  info: MessageInfo;
  /** A consumer span of this message, child of the publisher's context from its headers. */
  context: Context;
}

/** Events of a batch whose effect the handler could not store; the rest of the batch is acked. */
export interface BatchOutcome<Contract extends EventContract> {
  /** Each is settled by its own error: redelivered later, or terminated when marked `retryable: false`. */
  failed: ReadonlyArray<{ item: BatchItem<Contract>; error: unknown }>;
}

export interface ConsumeBatchesOptions<Contract extends EventContract> extends Omit<ConsumerTarget, "maxAckPending"> {
  /**
   * Stores the effect of every event of the batch. Resolving acks every event except those the
   * outcome lists as failed. Throwing fails the whole batch: every event is redelivered later
   * (terminated instead when the error is marked `retryable: false`).
   */
  handleBatch(items: BatchItem<Contract>[]): Promise<void | BatchOutcome<Contract>>;
  /** At most this many events per call (default DEFAULT_MAX_BATCH). */
  maxBatch?: number;
}

export function consumeBatches<Contract extends EventContract>(
  deps: ConsumerDeps,
  contract: Contract,
  options: ConsumeBatchesOptions<Contract>,
): Promise<Consumption> {
  const ackWaitMs = options.ackWaitMs ?? DEFAULT_ACK_WAIT_MS;
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  return runConsumer(
    deps,
    contract,
    options,
    async (messages) => {
      const waiting: JsMsg[] = [];
      let storing: Promise<void> | undefined;
      // Runs after the messages that arrived together are all in `waiting`; ends (synchronously
      // clearing `storing`) the moment nothing waits, so the next message starts a new run.
      const storeWaiting = async () => {
        await new Promise((resolve) => setImmediate(resolve));
        try {
          while (waiting.length) await handleBatch(deps, contract, waiting.splice(0, maxBatch), options.handleBatch, ackWaitMs);
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

interface ReceivedItem<Contract extends EventContract> {
  item: BatchItem<Contract>;
  message: JsMsg;
  span: Span;
}

/** Never throws: every message ends acked, redelivered later or terminated. */
async function handleBatch<Contract extends EventContract>(
  { logger }: ConsumerDeps,
  contract: Contract,
  messages: JsMsg[],
  handle: ConsumeBatchesOptions<Contract>["handleBatch"],
  ackWaitMs: number,
): Promise<void> {
  const received = new Map<BatchItem<Contract>, ReceivedItem<Contract>>();
  for (const message of messages) {
    const info = messageInfo(message);
    const payload = parseOrTerminate(contract, message, info, logger);
    if (payload === undefined) continue;
    // One consumer span per message, child of its publisher's context: the effect's own work
    // (a stored job, its later delivery) continues that message's trace, not the batch's.
    const parent = extractTraceContext(message.headers);
    const span = tracer.startSpan(
      `${contract.name} process`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          "messaging.system": "nats",
          "messaging.destination.name": info.subject,
          "messaging.message.id": info.messageId ?? "",
        },
      },
      parent,
    );
    const item = { payload, info, context: trace.setSpan(parent, span) };
    received.set(item, { item, message, span });
  }
  if (!received.size) return;
  const stopWorking = keepWorking(() => [...received.values()].map((r) => r.message), ackWaitMs);
  try {
    let outcome: void | BatchOutcome<Contract>;
    try {
      outcome = await handle([...received.keys()]);
    } catch (error) {
      const settled = [...received.values()].map((r) => fail(r, error));
      const first = [...received.keys()][0]!.info;
      if (settled.includes("terminated"))
        logger.error({ err: error, count: received.size, first }, "event batch failed for good: terminated");
      else logger.warn({ err: error, count: received.size, first }, "event batch failed: will redeliver");
      return;
    }
    const failed = new Map((outcome?.failed ?? []).map(({ item, error }) => [item, error]));
    for (const [item, entry] of received) {
      if (!failed.has(item)) {
        entry.message.ack();
        continue;
      }
      const error = failed.get(item);
      if (fail(entry, error) === "terminated") logger.error({ err: error, ...item.info }, "event of a batch failed for good: terminated");
      else logger.warn({ err: error, ...item.info }, "event of a batch failed: will redeliver");
    }
  } finally {
    stopWorking();
    for (const { span } of received.values()) span.end();
  }
}

function fail<Contract extends EventContract>(
  { item, message, span }: ReceivedItem<Contract>,
  error: unknown,
): "terminated" | "redelivered" {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  return settleFailure(message, item.info, error);
}
