import type { EventContract } from "@chaingate/contracts";
import type { ConsumerProgress } from "./connect-bus.ts";

/**
 * Resolves once a durable consumer has acknowledged every message its stream holds now (what was
 * published before this call), reading its progress every `pollMs`; throws past `timeoutMs`. The
 * barrier between two streams read by two consumers: a message seen on one means the messages
 * published before it on the other are handled once this resolves.
 */
export async function waitUntilConsumed(
  progress: (contract: EventContract, durable: string) => Promise<ConsumerProgress>,
  contract: EventContract,
  durable: string,
  { timeoutMs, pollMs = 50 }: { timeoutMs: number; pollMs?: number },
): Promise<void> {
  const { streamLastSequence } = await progress(contract, durable);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { ackedThrough } = await progress(contract, durable);
    if (ackedThrough >= streamLastSequence) return;
    if (Date.now() > deadline)
      throw new Error(`${durable} has acknowledged ${contract.name} through ${ackedThrough}, not yet ${streamLastSequence}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
