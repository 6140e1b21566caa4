/**
 * What tests, benchmarks and operators' tools may look at and change on the bus, named by
 * contract (the namespace applied here, so nobody rebuilds stream names by hand). Services use
 * the Bus's publish and consume; nothing here is needed to run one.
 */
import type { EventContract } from "@chaingate/contracts";
import type { ConsumerInfo, JetStreamClient, JetStreamManager, StoredMsg, StreamInfo } from "nats";
import type { BusNaming } from "./bus-naming.ts";
import { isNoMessage, isNotFound, unlessMissing } from "./nats-errors.ts";

export interface BusAdmin extends BusNaming {
  /** The stream's configuration and state; `subjects` (namespace added, wildcards allowed) fills `state.subjects` with per-subject counts. */
  streamInfo(contract: EventContract, options?: { subjects?: string }): Promise<StreamInfo>;
  /** How many messages each subject matching `filter` (namespace added) holds, keyed by subject without the namespace. */
  subjectCounts(contract: EventContract, filter: string): Promise<Record<string, number>>;
  /** The newest message stored on `subject` (namespace added), if any. */
  lastMessage(contract: EventContract, subject: string): Promise<StoredMsg | undefined>;
  consumerInfo(contract: EventContract, durable: string): Promise<ConsumerInfo>;
  deleteConsumer(contract: EventContract, durable: string): Promise<void>;
  /** Removes every message of the contract's stream (consumers stay). */
  purgeStream(contract: EventContract): Promise<void>;
  /** Deletes the contract's stream, if it exists. */
  deleteStream(contract: EventContract): Promise<void>;
  /** Publishes raw bytes on `subject` (namespace added), past the contract check: a broken payload for tests. */
  publishRaw(subject: string, data: string): Promise<void>;
}

export function createBusAdmin({
  manager,
  jetstream,
  naming,
}: {
  manager: JetStreamManager;
  jetstream: JetStreamClient;
  naming: BusNaming;
}): BusAdmin {
  return {
    ...naming,
    streamInfo: (contract, options = {}) =>
      manager.streams.info(
        naming.streamName(contract),
        options.subjects === undefined ? undefined : { subjects_filter: naming.subject(options.subjects) },
      ),
    async subjectCounts(contract, filter) {
      const { state } = await manager.streams.info(naming.streamName(contract), { subjects_filter: naming.subject(filter) });
      const prefix = naming.subject("");
      return Object.fromEntries(Object.entries(state.subjects ?? {}).map(([subject, count]) => [subject.slice(prefix.length), count]));
    },
    lastMessage: (contract, subject) =>
      unlessMissing(manager.streams.getMessage(naming.streamName(contract), { last_by_subj: naming.subject(subject) }), isNoMessage),
    consumerInfo: (contract, durable) => manager.consumers.info(naming.streamName(contract), durable),
    async deleteConsumer(contract, durable) {
      await manager.consumers.delete(naming.streamName(contract), durable);
    },
    async purgeStream(contract) {
      await manager.streams.purge(naming.streamName(contract));
    },
    async deleteStream(contract) {
      await unlessMissing(manager.streams.delete(naming.streamName(contract)), isNotFound);
    },
    async publishRaw(subject, data) {
      await jetstream.publish(naming.subject(subject), data);
    },
  };
}
