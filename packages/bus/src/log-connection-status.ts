import type { NatsConnection } from "nats";
import type { BusLogger } from "./bus-logger.ts";

/** Disconnects and reconnects in the service's log: an operator sees the outage and its end. */
export async function logConnectionStatus(connection: NatsConnection, logger: BusLogger): Promise<void> {
  for await (const status of connection.status()) {
    if (status.type === "disconnect" || status.type === "error")
      logger.warn({ nats: status.type, data: String(status.data) }, "NATS connection lost; reconnecting");
    else if (status.type === "reconnect") logger.info({ nats: status.type, data: String(status.data) }, "NATS connection re-established");
  }
}
