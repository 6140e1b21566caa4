/**
 * Idempotent stream set-up: one JetStream stream per contract stream, with the contracts' subjects
 * and options; an existing stream is updated, its subjects only ever added to.
 */
import type { EventContract, StreamOptions } from "@chaingate/contracts";
import { nanos, RetentionPolicy, StorageType, type JetStreamManager, type StreamConfig } from "nats";
import type { BusNaming } from "./bus-naming.ts";
import { isNotFound, unlessMissing } from "./nats-errors.ts";

type StreamConfigInput = Partial<StreamConfig> & { name: string; subjects: string[] };

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
    await addOrExtend(manager, config);
  }
}

/** Rounds of read, then add or extend, before a stream that keeps changing under us is an error. */
const ENSURE_ATTEMPTS = 8;

/** After a race, how often and how far apart a process looks again whether its subjects survived. */
const RACE_CHECKS = 2;
const RACE_SETTLE_MS = 300;

/**
 * Creates the stream, or adds `config.subjects` to the existing one. Subjects are only ever added:
 * a process that knows some of a stream's contracts (a test publisher, an older release) must not
 * take the others' subjects away. Processes starting together race: each finds no stream and adds
 * it with its own subjects, and all but one are refused ("already in use", "subjects overlap"), so
 * each reads again and extends what won. An update replaces the whole subject list, so one built
 * from an older read can drop subjects another process just added: after an update or a race a
 * process looks again once the others had time to finish, and adds back what it misses.
 */
async function addOrExtend(manager: JetStreamManager, config: StreamConfigInput): Promise<void> {
  /** Checks still to make after a race, RACE_SETTLE_MS apart, each finding every subject there. */
  let checksLeft = 0;
  for (let attempt = 1; ; attempt++) {
    const existing = await unlessMissing(manager.streams.info(config.name), isNotFound);
    const missing = existing ? config.subjects.filter((subject) => !existing.config.subjects.includes(subject)) : config.subjects;
    if (existing && missing.length === 0) {
      if (checksLeft === 0) return;
      checksLeft--;
      await sleep(RACE_SETTLE_MS);
      continue;
    }
    try {
      if (existing) {
        await manager.streams.update(config.name, { ...config, subjects: [...existing.config.subjects, ...missing] });
        // Another process may be extending it from the same read: make sure ours survive it.
        checksLeft = RACE_CHECKS;
      } else {
        await manager.streams.add(config);
        if (attempt > 1) checksLeft = RACE_CHECKS;
      }
    } catch (error) {
      if (attempt >= ENSURE_ATTEMPTS) throw error;
      checksLeft = RACE_CHECKS;
      await sleep(10 + Math.random() * 40 * attempt);
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
