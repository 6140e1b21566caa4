import { describe, expect, it } from "vitest";
import { addressFromBase58, addressFromPrivateKey } from "./address.ts";
import { computeBlockId, computeTxTrieRoot } from "./block.ts";
import { encodeTransaction, transactionId } from "./encode-transaction.ts";
import { createGenesis, GENESIS_TIMESTAMP, USDT_ADDRESS } from "./genesis.ts";
import type { DevAccount } from "./genesis.ts";
import { toHex } from "./hex.ts";
import { Ledger } from "./ledger.ts";
import { MAX_REORG_DEPTH } from "./ledger/ledger-chain.ts";
import { TransactionRejected } from "./ledger/transaction-rejected.ts";
import { signTransactionId } from "./sign-transaction.ts";
import type { Transaction, TransactionContract, TransactionRaw } from "./transaction.ts";

const HOUR = 3_600_000;

function setup(): { ledger: Ledger; alice: DevAccount; bob: DevAccount; tick: (ms: number) => void } {
  let now = GENESIS_TIMESTAMP + HOUR;
  const genesis = createGenesis();
  const ledger = new Ledger(genesis, () => now);
  ledger.produceBlock();
  const [alice, bob] = genesis.accounts as [DevAccount, DevAccount];
  return { ledger, alice, bob, tick: (ms) => (now += ms) };
}

function transfer(from: DevAccount, to: string, amount: number): TransactionContract {
  return {
    type: "TransferContract",
    permissionId: 0,
    value: { owner_address: Buffer.from(from.hex, "hex"), to_address: Buffer.from(to, "hex"), amount },
  };
}

function signed(raw: TransactionRaw, ...keys: string[]): Transaction {
  const id = transactionId(raw);
  return { raw, signatures: keys.map((key) => signTransactionId(id, key)) };
}

function rejection(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof TransactionRejected) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a rejection");
}

describe("Ledger broadcast checks (java-tron's order and messages)", () => {
  it("accepts a transaction referencing an older recent block (TAPOS is not head-only)", () => {
    const { ledger, alice, bob } = setup();
    const old = ledger.builderRaw(transfer(alice, bob.hex, 1));
    ledger.produceBlock();
    ledger.produceBlock();
    expect(() => ledger.broadcast(signed(old, alice.privateKey))).not.toThrow();
  });

  it("refuses a wrong ref_block_hash or an unknown ref block with TAPOS_ERROR", () => {
    const { ledger, alice, bob } = setup();
    const raw = ledger.builderRaw(transfer(alice, bob.hex, 1));
    expect(rejection(() => ledger.broadcast(signed({ ...raw, refBlockHash: new Uint8Array(8) }, alice.privateKey)))).toEqual({
      code: "TAPOS_ERROR",
      message: "Tapos check error.",
    });
    expect(rejection(() => ledger.broadcast(signed({ ...raw, refBlockBytes: Uint8Array.of(0x12, 0x34) }, alice.privateKey))).code).toBe(
      "TAPOS_ERROR",
    );
  });

  it("refuses expired and too-far expirations with TRANSACTION_EXPIRATION_ERROR", () => {
    const { ledger, alice, bob } = setup();
    const raw = ledger.builderRaw(transfer(alice, bob.hex, 1));
    const head = ledger.head.raw.timestamp;
    for (const expiration of [head - 1, head, head + 86_400_001]) {
      expect(rejection(() => ledger.broadcast(signed({ ...raw, expiration }, alice.privateKey)))).toEqual({
        code: "TRANSACTION_EXPIRATION_ERROR",
        message: "Transaction expired",
      });
    }
  });

  it("refuses unsigned, over-signed, short-signed and foreign-signed transactions with SIGERROR", () => {
    const { ledger, alice, bob } = setup();
    const raw = ledger.builderRaw(transfer(alice, bob.hex, 1));
    expect(rejection(() => ledger.broadcast({ raw, signatures: [] }))).toEqual({
      code: "SIGERROR",
      message: "Validate signature error: miss sig or contract",
    });
    expect(rejection(() => ledger.broadcast(signed(raw, alice.privateKey, bob.privateKey))).message).toBe(
      "Validate signature error: Signature count is 2 more than key counts of permission : 1",
    );
    const short = signed(raw, alice.privateKey);
    expect(rejection(() => ledger.broadcast({ raw, signatures: [(short.signatures[0] as Uint8Array).subarray(0, 64)] })).message).toBe(
      "Validate signature error: Signature size is 64",
    );
    const foreign = signed(raw, bob.privateKey);
    expect(rejection(() => ledger.broadcast(foreign)).message).toBe(
      `Validate signature error: ${toHex(foreign.signatures[0] as Uint8Array)} is signed by ${bob.base58} but it is not contained of permission.`,
    );
  });

  it("runs the actuator checks: balance, self-transfer, contract recipient, unknown owner", () => {
    const { ledger, alice, bob } = setup();
    const tooMuch = ledger.builderRaw(transfer(alice, bob.hex, alice.balanceSun + 1));
    expect(rejection(() => ledger.broadcast(signed(tooMuch, alice.privateKey)))).toEqual({
      code: "CONTRACT_VALIDATE_ERROR",
      message: "Validate TransferContract error, balance is not sufficient.",
    });
    expect(rejection(() => ledger.broadcast(signed(ledger.builderRaw(transfer(alice, alice.hex, 1)), alice.privateKey))).message).toBe(
      "Cannot transfer TRX to yourself.",
    );
    const usdtHex = toHex(addressFromBase58(USDT_ADDRESS) as Uint8Array);
    expect(rejection(() => ledger.broadcast(signed(ledger.builderRaw(transfer(alice, usdtHex, 1)), alice.privateKey))).message).toBe(
      "Cannot transfer TRX to a smartContract.",
    );

    const strangerKey = "11".repeat(32);
    const stranger = { ...alice, privateKey: strangerKey, hex: toHex(addressFromPrivateKey(strangerKey)) };
    expect(rejection(() => ledger.broadcast(signed(ledger.builderRaw(transfer(stranger, bob.hex, 1)), strangerKey))).message).toMatch(
      /^account \[T\w+\] does not exist$/,
    );
  });

  it("refuses a fee_limit above getMaxFeeLimit", () => {
    const { ledger, alice } = setup();
    const usdt = addressFromBase58(USDT_ADDRESS) as Uint8Array;
    const call: TransactionContract = {
      type: "TriggerSmartContract",
      permissionId: 0,
      value: {
        owner_address: Buffer.from(alice.hex, "hex"),
        contract_address: usdt,
        call_value: 0,
        data: Uint8Array.of(0x31, 0x3c, 0xe5, 0x67),
        call_token_value: 0,
        token_id: 0,
      },
    };
    const raw = ledger.builderRaw(call, { feeLimit: 15_000_000_001 });
    expect(rejection(() => ledger.broadcast(signed(raw, alice.privateKey)))).toEqual({
      code: "CONTRACT_VALIDATE_ERROR",
      message: "feeLimit must be >= 0 and <= 15000000000",
    });
  });
});

describe("Ledger resources", () => {
  it("uses the 600-byte daily free bandwidth first, then burns 1000 sun per byte", () => {
    const { ledger, alice, bob } = setup();
    const results = [1, 2, 3].map((amount) =>
      ledger.broadcast(signed(ledger.builderRaw(transfer(alice, bob.hex, amount)), alice.privateKey)),
    );
    const [first, second, third] = results as [(typeof results)[0], (typeof results)[0], (typeof results)[0]];
    expect(first.netFee).toBe(0);
    expect(second.netFee).toBe(0);
    expect(first.netUsage + second.netUsage).toBeLessThanOrEqual(600);
    const bytes = encodeTransaction(third.transaction, false).length + 64;
    expect(third).toMatchObject({ netUsage: 0, netFee: bytes * 1_000, fee: bytes * 1_000 });
  });

  it("refuses with BANDWITH_ERROR when the owner cannot pay for bandwidth", () => {
    const { ledger, alice } = setup();
    const key = "22".repeat(32);
    const poor = { ...alice, privateKey: key, hex: toHex(addressFromPrivateKey(key)) };
    ledger.broadcast(signed(ledger.builderRaw(transfer(alice, poor.hex, 10)), alice.privateKey));
    // 10 sun left: the first transfer back is covered by free bandwidth, to a new account it costs 0.1 TRX.
    const freshTarget = toHex(addressFromPrivateKey("33".repeat(32)));
    expect(rejection(() => ledger.broadcast(signed(ledger.builderRaw(transfer(poor, freshTarget, 1)), key)))).toEqual({
      code: "BANDWITH_ERROR",
      message: "Account resource insufficient error.",
    });
  });
});

describe("Ledger blocks", () => {
  it("chains blocks by parentHash, with recomputable blockIDs and txTrieRoots", () => {
    const { ledger, alice, bob, tick } = setup();
    ledger.broadcast(signed(ledger.builderRaw(transfer(alice, bob.hex, 5)), alice.privateKey));
    ledger.broadcast(signed(ledger.builderRaw(transfer(bob, alice.hex, 6)), bob.privateKey));
    ledger.broadcast(signed(ledger.builderRaw(transfer(alice, bob.hex, 7)), alice.privateKey));
    tick(3_000);
    const block = ledger.produceBlock();
    const parent = ledger.blockByNumber(block.raw.number - 1);
    expect(toHex(block.raw.parentHash)).toBe(parent?.idHex);
    expect(toHex(computeBlockId(block.raw))).toBe(block.idHex);
    expect(block.idHex.slice(0, 16)).toBe(block.raw.number.toString(16).padStart(16, "0"));
    expect(block.transactions).toHaveLength(3);
    expect(toHex(block.raw.txTrieRoot)).toBe(
      toHex(computeTxTrieRoot(block.transactions.map((entry) => encodeTransaction(entry.transaction)))),
    );
    expect(block.raw.timestamp).toBeGreaterThan(parent?.raw.timestamp ?? Infinity);
    expect(toHex(block.raw.witnessAddress)).toBe(ledger.genesis.witness.hex);
  });

  it("keeps confirmed state separate from pending state until a block is produced", () => {
    const { ledger, alice, bob } = setup();
    ledger.broadcast(signed(ledger.builderRaw(transfer(alice, bob.hex, 5)), alice.privateKey));
    expect(ledger.confirmedState.accounts.get(bob.hex)?.balance).toBe(bob.balanceSun);
    expect(ledger.pendingView.accounts.get(bob.hex)?.balance).toBe(bob.balanceSun + 5);
    ledger.produceBlock();
    expect(ledger.confirmedState.accounts.get(bob.hex)?.balance).toBe(bob.balanceSun + 5);
  });

  it("has the documented fixed genesis blockID (the JSON-RPC chain id is its last 4 bytes)", () => {
    const genesisBlock = setup().ledger.blockByNumber(0);
    expect(genesisBlock?.idHex).toBe("00000000000000002b571420c6a6b9524cf885930e3e2be0ad6930bda57cb69c");
    expect(genesisBlock?.raw.timestamp).toBe(GENESIS_TIMESTAMP);
  });

  it("can replace up to MAX_REORG_DEPTH blocks (older states are dropped), never the genesis block", () => {
    const { ledger } = setup();
    for (let index = 0; index <= MAX_REORG_DEPTH; index += 1) ledger.produceBlock();
    expect(() => ledger.reorg(MAX_REORG_DEPTH + 1)).toThrow(RangeError);
    expect(() => ledger.reorg(ledger.head.raw.number + 1)).toThrow(/depth must be an integer from 1/);
    const head = ledger.head.raw.number;
    const result = ledger.reorg(MAX_REORG_DEPTH);
    expect(result.produced).toHaveLength(MAX_REORG_DEPTH);
    expect(ledger.head.raw.number).toBe(head);
    expect(result.produced.every((block, index) => block.idHex !== result.dropped[index]?.idHex)).toBe(true);
  });
});
