/**
 * How a bus's namespace turns contract names into NATS names: `<namespace>.<subject>` and
 * `<namespace>_<STREAM>`. Tests (and tenants) sharing one NATS each see only their own.
 */
import type { EventContract } from "@chaingate/contracts";

export interface BusNaming {
  /** The contract's stream as this bus names it, e.g. `t1a2b_TRANSFERS`. */
  streamName(contract: EventContract): string;
  /** A subject (or subject filter) as this bus names it, e.g. `t1a2b.transfer.matched.btc`. */
  subject(subject: string): string;
}

export function createBusNaming(namespace: string | undefined): BusNaming {
  return {
    streamName: (contract) => (namespace ? `${namespace}_${contract.stream}` : contract.stream),
    subject: (subject) => (namespace ? `${namespace}.${subject}` : subject),
  };
}
