/**
 * Idempotent stream set-up: one JetStream stream per contract stream, with the contracts' subjects
 * and options; an existing stream is updated, its subjects only ever added to.
 */
import type { EventContract, StreamOptions } from "@chaingate/contracts";
import { nanos, RetentionPolicy, StorageType, type JetStreamManager } from "nats";
import type { BusNaming } from "./bus-naming.ts";
import { isNotFound, unlessMissing } from "./nats-errors.ts";

/** Long enough to cover a crashed scanner's restart and re-scan: its republishes are dropped. */
export const DUPLICATE_WINDOW_MS = 60 * 60 * 1000;
export const STREAM_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export interface EnsureStreamsOptions {
  manager: JetStreamManager;
  naming: BusNaming;
  /** Copies of every stream (JetStream cluster: 3). */
  replicas: number;
}

export async function ensureStreams(
  { manager, naming, replicas }: EnsureStreamsOptions,
  contracts: readonly EventContract[],
): Promise<void> {
  const streams = new Map<string, { subjects: Set<string>; options: StreamOptions; from: string }>();
  for (const contract of contracts) {
    const name = naming.streamName(contract);
    const streamOptions = contract.streamOptions ?? {};
    const stream = streams.get(name) ?? { subjects: new Set<string>(), options: streamOptions, from: contract.name };
    if (JSON.stringify(stream.options) !== JSON.stringify(streamOptions)) {
      throw new Error(`Contracts ${stream.from} and ${contract.name} share stream ${contract.stream} but ask for different stream options`);
    }
    for (const subject of [contract.streamSubjects, ...(streamOptions.subjects ?? [])]) stream.subjects.add(naming.subject(subject));
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
      num_replicas: replicas,
    };
    const existing = await unlessMissing(manager.streams.info(name), isNotFound);
    // Subjects are only ever added: a process that knows some of a stream's contracts (a test
    // publisher, an older release) must not take the others' subjects away.
    if (existing) await manager.streams.update(name, { ...config, subjects: [...new Set([...existing.config.subjects, ...subjects])] });
    else await manager.streams.add(config);
  }
}
