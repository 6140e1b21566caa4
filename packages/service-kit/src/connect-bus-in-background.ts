/**
 * A bus that connects in the background: the service starts, serves and keeps writing its outbox
 * while NATS is down, and its relays and consumers begin once NATS is there. The bus counts as
 * connected only when its streams exist and `onConnect` (starting consumers) passed; until then a
 * loop retries with back-off, and every `get()` tries too.
 */
import { backoffDelayMs, createWakeableSleep, type BackoffSchedule } from "@chaingate/backoff";
import { connectBus, type Bus, type Consumption } from "@chaingate/bus";
import type { EventContract } from "@chaingate/contracts";
import type { Logger } from "@chaingate/logger";

/** A failed connect retries after 1 s, doubling up to 10 s. */
export const BUS_CONNECT_RETRY: BackoffSchedule = { firstMs: 1_000, maxMs: 10_000 };

/** The shared NATS settings (`natsSettings()` of @chaingate/config). */
export interface NatsSettings {
  NATS_URL: string;
  NATS_NAMESPACE?: string | undefined;
  NATS_STREAM_REPLICAS: number;
}

export interface BackgroundBusOptions {
  settings: NatsSettings;
  /** The connection name the NATS server shows: the service's name. */
  name: string;
  logger: Logger;
  /** Streams created or updated before the bus is handed out. */
  streams: readonly EventContract[];
  /** Runs once, after the streams exist and before the bus is handed out: starts the service's consumers. */
  onConnect?(bus: Bus): Promise<Consumption[]>;
  retry?: BackoffSchedule;
}

export interface BackgroundBus {
  /** The connected bus; connects now when it is not (rejects on failure: the caller's own loop retries). */
  get(): Promise<Bus>;
  /** Throws unless connected and up: a degraded (or readiness) check. */
  ping(): Promise<void>;
  /** Stops the consumers `onConnect` started, and starts none later (the first step of a shutdown). */
  stopConsuming(): Promise<void>;
  /** Stops consuming and retrying, and closes the bus (a connection still being made is closed once it is). */
  close(): Promise<void>;
}

export function connectBusInBackground(options: BackgroundBusOptions): BackgroundBus {
  const { settings, logger } = options;
  let bus: Bus | undefined;
  let connecting: Promise<Bus> | undefined;
  let closed = false;
  let consuming = true;
  const consumptions: Consumption[] = [];
  const pause = createWakeableSleep();

  async function connectOnce(): Promise<Bus> {
    const connected = await connectBus({
      url: settings.NATS_URL,
      name: options.name,
      logger,
      namespace: settings.NATS_NAMESPACE,
      streamReplicas: settings.NATS_STREAM_REPLICAS,
    });
    try {
      await connected.ensureStreams(options.streams);
      if (consuming) consumptions.push(...((await options.onConnect?.(connected)) ?? []));
    } catch (error) {
      await connected.close().catch(() => {});
      throw error;
    }
    if (closed) {
      await stopConsuming();
      await connected.close();
      throw new Error("the service is stopping");
    }
    bus = connected;
    return connected;
  }

  async function stopConsuming(): Promise<void> {
    consuming = false;
    await Promise.all(consumptions.splice(0).map((consumption) => consumption.stop()));
  }

  const get = (): Promise<Bus> =>
    bus
      ? Promise.resolve(bus)
      : (connecting ??= connectOnce().finally(() => {
          connecting = undefined;
        }));

  // Never rejects: every failure is logged and retried.
  void (async () => {
    for (let failures = 1; !closed && !bus; failures++) {
      try {
        await get();
      } catch (error) {
        if (closed) break;
        logger.warn(
          { err: error, retry_in_ms: backoffDelayMs(failures, options.retry ?? BUS_CONNECT_RETRY) },
          "NATS not reachable; retrying",
        );
        await pause.sleep(backoffDelayMs(failures, options.retry ?? BUS_CONNECT_RETRY));
      }
    }
  })();

  return {
    get,
    async ping() {
      if (!bus) throw new Error("not connected yet");
      await bus.ping();
    },
    stopConsuming,
    async close() {
      closed = true;
      await stopConsuming();
      pause.wake();
      if (bus) await bus.close();
      // A connect under way closes its connection itself when it ends (it sees `closed`).
      else void connecting?.catch(() => {});
    },
  };
}
