/**
 * How a consumed message ends: acked after its effect was stored, terminated when no try can ever
 * pass (a payload that breaks its contract, an error marked `retryable: false`), and otherwise
 * redelivered later with a doubling delay. Losing an event is the one thing we never do, so an
 * error nobody classified is retried.
 */
import { backoffDelayMs } from "@chaingate/backoff";
import type { EventContract, EventPayload } from "@chaingate/contracts";
import { isPermanentFailure } from "@chaingate/errors";
import type { JsMsg } from "nats";
import type { BusLogger } from "./bus-logger.ts";

/** Redelivery after a failure waits 1 s, doubling per delivery up to MAX_REDELIVERY_DELAY_MS. */
export const MAX_REDELIVERY_DELAY_MS = 60_000;
const REDELIVERY_BACKOFF = { firstMs: 1_000, maxMs: MAX_REDELIVERY_DELAY_MS };

export interface MessageInfo {
  subject: string;
  messageId: string | undefined;
  /** 1 on the first delivery. */
  deliveryCount: number;
  streamSequence: number;
}

export function messageInfo(message: JsMsg): MessageInfo {
  return {
    subject: message.subject,
    messageId: message.headers?.get("Nats-Msg-Id") || undefined,
    deliveryCount: message.info.redeliveryCount,
    streamSequence: message.seq,
  };
}

/** The message's payload, or undefined when it breaks its contract (then it is terminated). */
export function parseOrTerminate<Contract extends EventContract>(
  contract: Contract,
  message: JsMsg,
  info: MessageInfo,
  logger: BusLogger,
): EventPayload<Contract> | undefined {
  try {
    return contract.schema.parse(message.json()) as EventPayload<Contract>;
  } catch (error) {
    // A payload that breaks its contract will never parse: keep it out of the redelivery loop.
    logger.error({ err: error, ...info }, "event does not match its contract: terminated");
    message.term();
    return undefined;
  }
}

/** Terminates or schedules the redelivery of a message whose handling failed with `error`; says which. */
export function settleFailure(message: JsMsg, info: MessageInfo, error: unknown): "terminated" | "redelivered" {
  if (isPermanentFailure(error)) {
    // No reason text: servers before 2.10 do not parse "+TERM <reason>" and would keep the
    // message pending, then redeliver it (the reason is in the caller's log line).
    message.term();
    return "terminated";
  }
  message.nak(redeliveryDelayMs(info));
  return "redelivered";
}

export function redeliveryDelayMs(info: MessageInfo): number {
  return backoffDelayMs(info.deliveryCount, REDELIVERY_BACKOFF);
}

/** Tells the server a handler slower than the ack deadline is still working, so the message is not redelivered to another replica meanwhile. */
export function keepWorking(messages: () => Iterable<JsMsg>, ackWaitMs: number): () => void {
  const timer = setInterval(
    () => {
      for (const message of messages()) message.working();
    },
    Math.max(ackWaitMs / 3, 100),
  );
  return () => clearInterval(timer);
}
