/**
 * Typed publishing: the payload is checked against its contract, carries the publisher's trace
 * context and a deterministic `Nats-Msg-Id` (the stream drops a republished event as a duplicate).
 */
import type { EventContract, EventPayload } from "@chaingate/contracts";
import { headers as createHeaders, type JetStreamClient, type JetStreamManager } from "nats";
import type { BusNaming } from "./bus-naming.ts";
import { isNoMessage, isWrongLastSequence, unlessMissing } from "./nats-errors.ts";
import { injectTraceContext } from "./trace-headers.ts";

/**
 * A compare-and-set publish that keeps losing gives up after this many tries. Each loss means
 * another publisher landed, so with fewer concurrent publishers of one subject than this none
 * gives up.
 */
const CONDITIONAL_PUBLISH_ATTEMPTS = 20;

export interface PublishResult {
  duplicate: boolean;
  sequence: number;
}

export interface ConditionalPublishResult {
  /** False when the subject already held a message at least as new (nothing was published). */
  published: boolean;
}

export interface Publisher {
  publish<Contract extends EventContract>(contract: Contract, payload: EventPayload<Contract>): Promise<PublishResult>;
  /** See Bus.publishIfNewer. */
  publishIfNewer<Contract extends EventContract>(
    contract: Contract,
    payload: EventPayload<Contract>,
    version: (payload: EventPayload<Contract>) => number,
  ): Promise<ConditionalPublishResult>;
}

export function createPublisher({
  jetstream,
  manager,
  naming,
}: {
  jetstream: JetStreamClient;
  manager: JetStreamManager;
  naming: BusNaming;
}): Publisher {
  function tracedHeaders() {
    const headers = createHeaders();
    injectTraceContext(headers);
    return headers;
  }

  return {
    async publish(contract, payload) {
      const valid = contract.schema.parse(payload) as typeof payload;
      const ack = await jetstream.publish(naming.subject(contract.subject(valid)), JSON.stringify(valid), {
        msgID: contract.messageId(valid),
        headers: tracedHeaders(),
      });
      return { duplicate: ack.duplicate, sequence: ack.seq };
    },

    async publishIfNewer(contract, payload, version) {
      const valid = contract.schema.parse(payload) as typeof payload;
      const subject = naming.subject(contract.subject(valid));
      for (let attempt = 1; ; attempt++) {
        const last = await unlessMissing(manager.streams.getMessage(naming.streamName(contract), { last_by_subj: subject }), isNoMessage);
        if (last && version(last.json<typeof payload>()) >= version(valid)) return { published: false };
        try {
          // The server refuses the message if anything landed on the subject since `last` was read.
          await jetstream.publish(subject, JSON.stringify(valid), {
            msgID: contract.messageId(valid),
            headers: tracedHeaders(),
            expect: { lastSubjectSequence: last?.seq ?? 0 },
          });
          return { published: true };
        } catch (error) {
          if (!isWrongLastSequence(error) || attempt >= CONDITIONAL_PUBLISH_ATTEMPTS) throw error;
        }
      }
    },
  };
}
