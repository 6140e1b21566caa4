/**
 * chaingate's own tracer (ETH_TRACE_MODE=js) run by a real node: on Anvil, for a block of the
 * payments the scanner must see (a forwarder, three hops, an inner call that reverts, a transaction
 * that reverts after paying, a 50-address payout, a CREATE2 with value, a plain transfer), the
 * frames it answers are exactly those read from the same block's callTracer answer. A SELFDESTRUCT,
 * which revm-based nodes misreport to JS tracers, marks its transaction suspect, and the block
 * source reads that block with callTracer: the beneficiary is still seen.
 */
import { createNodeClient, ethereum } from "@chaingate/node-client";
import { deployValueRouter, type AnvilNode } from "@chaingate/testing";
import { Wallet } from "ethers";
import { describe, expect } from "vitest";
import { valueFramesFromCallTracer, valueFramesFromTracerList, type CallTracerFrame } from "../../domain/ethereum-call-frames.ts";
import { scannerTest as it } from "../../testing/scanner-fixtures.ts";
import { createEthereumBlockSource } from "../ethereum-block-source.ts";
import { VALUE_FRAME_TRACER } from "./value-frame-tracer.ts";

const newAddress = () => Wallet.createRandom().address.toLowerCase();

/** Sends the transactions with automine off and mines them in one block: its hash and height. */
async function mineTogether(node: AnvilNode, send: () => Promise<unknown>): Promise<{ hash: string; height: number }> {
  await node.rpc("evm_setAutomine", [false]);
  try {
    await send();
    await node.rpc("evm_mine");
  } finally {
    await node.rpc("evm_setAutomine", [true]);
  }
  const block = await node.rpc<{ hash: string; number: string }>("eth_getBlockByNumber", ["latest", false]);
  return { hash: block.hash, height: Number(block.number) };
}

type Traced<T> = Array<{ txHash: string; result: T }>;

describe("chaingate's value-frame tracer on Anvil", () => {
  it("answers the same value frames as callTracer for every kind of internal payment, and nothing suspect", async ({ anvil }) => {
    const router = await deployValueRouter(anvil);
    const relays = [await deployValueRouter(anvil), await deployValueRouter(anvil)];
    const payees = Array.from({ length: 50 }, newAddress);
    const { hash } = await mineTogether(anvil, async () => {
      await router.forward(newAddress(), 7n);
      await router.forwardThrough(
        relays.map((relay) => relay.address),
        newAddress(),
        8n,
      );
      await router.tryForward(newAddress(), 9n);
      await router.forwardThenRevert(newAddress(), 10n);
      await router.payout(
        payees,
        payees.map((_, i) => BigInt(i + 1)),
      );
      await router.createDeposit(`0x${"3c".repeat(32)}`, 13n);
      await anvil.rpc("eth_sendTransaction", [{ from: anvil.accounts[1]!.address, to: newAddress(), value: "0x5" }]);
    });
    const own = await anvil.rpc<Traced<{ from: string; frames: unknown; suspect: boolean }>>("debug_traceBlockByHash", [
      hash,
      { tracer: VALUE_FRAME_TRACER },
    ]);
    const builtIn = await anvil.rpc<Traced<CallTracerFrame>>("debug_traceBlockByHash", [hash, { tracer: "callTracer" }]);

    expect(own).toHaveLength(7);
    expect(own.map((trace) => trace.result.suspect)).toEqual(Array(7).fill(false));
    expect(own.map((trace) => valueFramesFromTracerList(trace.result.frames))).toEqual(
      builtIn.map((trace) => valueFramesFromCallTracer(trace.result)),
    );
    // Not vacuous: the block holds the forwarder's, the hops', the payout's and the CREATE2's frames.
    expect(own.flatMap((trace) => valueFramesFromTracerList(trace.result.frames))).toHaveLength(1 + 3 + 50 + 1);
    // The point of it: a smaller answer, even for a block where nearly every frame moves value.
    expect(JSON.stringify(own).length * 2).toBeLessThan(JSON.stringify(builtIn).length);
  });

  it("marks a SELFDESTRUCT suspect, and the block source reads that block with callTracer: the beneficiary is seen", async ({ anvil }) => {
    const doomed = await deployValueRouter(anvil);
    const beneficiary = newAddress();
    const { hash, height } = await mineTogether(anvil, () => doomed.destroy(beneficiary, 11n));
    const [own] = await anvil.rpc<Traced<{ suspect: boolean }>>("debug_traceBlockByHash", [hash, { tracer: VALUE_FRAME_TRACER }]);
    expect(own!.result.suspect).toBe(true);

    const source = createEthereumBlockSource(createNodeClient({ chain: ethereum, urls: [anvil.url] }), { traceMode: "js" });
    const block = await source.blockAt(height);
    expect(block?.transactions[0]!.internalTransfers).toEqual([
      { type: "SELFDESTRUCT", from: doomed.address, to: beneficiary, value: "0xb", index: 1, traceAddress: "0" },
    ]);
  });
});
