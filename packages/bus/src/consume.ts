/** One message at a time: each is acked only after its handler stored the effect. */
import { context } from "@opentelemetry/api";
import type { EventContract, EventPayload } from "@chaingate/contracts";
import type { ConsumerMessages, JsMsg } from "nats";
import { DEFAULT_ACK_WAIT_MS, runConsumer, type ConsumerDeps, type ConsumerTarget, type Consumption } from "./run-consumer.ts";
import { keepWorking, messageInfo, parseOrTerminate, redeliveryDelayMs, settleFailure, type MessageInfo } from "./settle-message.ts";
import { extractTraceContext } from "./trace-headers.ts";

export interface ConsumeOptions<Contract extends EventContract> extends ConsumerTarget {
  /**
   * Stores the event's effect; the message is acked only after it resolves. When it throws, the
   * message is redelivered later, or terminated for an error marked `retryable: false`.
   */
  handle(payload: EventPayload<Contract>, info: MessageInfo): Promise<void>;
}

export function consume<Contract extends EventContract>(
  deps: ConsumerDeps,
  contract: Contract,
  options: ConsumeOptions<Contract>,
): Promise<Consumption> {
  const ackWaitMs = options.ackWaitMs ?? DEFAULT_ACK_WAIT_MS;
  return runConsumer(deps, contract, options, async (messages: ConsumerMessages) => {
    for await (const message of messages) await handleMessage(deps, contract, message, options.handle, ackWaitMs);
  });
}

async function handleMessage<Contract extends EventContract>(
  { logger }: ConsumerDeps,
  contract: Contract,
  message: JsMsg,
  handle: ConsumeOptions<Contract>["handle"],
  ackWaitMs: number,
): Promise<void> {
  const info = messageInfo(message);
  const payload = parseOrTerminate(contract, message, info, logger);
  if (payload === undefined) return;
  const stopWorking = keepWorking(() => [message], ackWaitMs);
  try {
    await context.with(extractTraceContext(message.headers), () => handle(payload, info));
    message.ack();
  } catch (error) {
    if (settleFailure(message, info, error) === "terminated")
      logger.error({ err: error, ...info }, "event handling failed for good: terminated");
    else logger.warn({ err: error, ...info, redeliver_in_ms: redeliveryDelayMs(info) }, "event handling failed: will redeliver");
  } finally {
    stopWorking();
  }
}
