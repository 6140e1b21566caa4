/**
 * The devnode's fixed genesis: dev accounts with TRX, TRC-10 tokens and TRC-20 tokens, and the forwarder contract.
 * DEV ONLY: these private keys are public (derived as sha256("chaingate tron-devnode <label>")); never use them on a real network.
 */
import { keccak_256 } from "@noble/hashes/sha3";
import { addressFromBase58, addressFromPrivateKey, addressToBase58, fromEvmAddress } from "./address.ts";
import { toHex } from "./hex.ts";

/** A key pair the devnode knows about. */
export interface DevKey {
  /** 32-byte private key, hex without 0x. DEV ONLY. */
  privateKey: string;
  /** Base58Check address (`T…`). */
  base58: string;
  /** 21-byte hex address (`41…`). */
  hex: string;
}

/** A funded genesis account. */
export interface DevAccount extends DevKey {
  /** TRX balance at genesis, in sun. */
  balanceSun: number;
  /** TRC-10 balances at genesis: token id → amount in the token's smallest unit. */
  trc10: Record<string, number>;
  /** TRC-20 balances at genesis: contract Base58 → amount in the token's smallest unit (decimal string). */
  trc20: Record<string, string>;
}

/** A TRC-10 token (AssetIssueContract). */
export interface Trc10Token {
  id: string;
  name: string;
  abbr: string;
  precision: number;
  totalSupply: number;
  description: string;
  url: string;
  /** Issuer (hex). */
  ownerHex: string;
}

/** A TRC-20 token contract executed natively by the devnode. */
export interface Trc20Token {
  base58: string;
  hex: string;
  name: string;
  symbol: string;
  decimals: number;
  /** Total supply in the smallest unit (decimal string). */
  totalSupply: string;
  /** Deployer (hex). */
  originHex: string;
  /**
   * True for mainnet USDT, whose `transfer` returns 32 zero bytes (false) even when it succeeds: its
   * TetherToken code drops the return value. Nothing may trust a TRC-20 `transfer`'s return value.
   */
  transferReturnsFalse: boolean;
}

/** The native forwarder contract (forwarder-contract.ts): passes on the TRX and TRC-10 it is called with. */
export interface ForwarderContract {
  base58: string;
  hex: string;
  name: string;
  /** Deployer (hex). */
  originHex: string;
}

/** Everything a test or the dev stack may rely on. */
export interface TronDevnodeGenesis {
  /** The single super representative that produces every block. */
  witness: DevKey;
  accounts: DevAccount[];
  trc10: Trc10Token[];
  trc20: Trc20Token[];
  /** The contract whose calls produce internal transactions. */
  forwarder: ForwarderContract;
  /** Timestamp of block 0 (fixed, so the genesis blockID and chain id are stable). */
  timestamp: number;
}

/** TRX every dev account starts with: 1 000 000 TRX. */
export const DEV_ACCOUNT_BALANCE_SUN = 1_000_000_000_000;
/** Fixed timestamp of block 0 (2025-06-15T15:06:40Z). */
export const GENESIS_TIMESTAMP = 1_750_000_000_000;

const WITNESS_PRIVATE_KEY = "1bae2950740518e566dd33cc6057774bd4cd40d110dfd9575cde619d7d9705e0";
const ACCOUNT_PRIVATE_KEYS = [
  "8d70ac294072d58296e87aaf2916f0e85fde37f9e283b838a2bcbd445a2aec12",
  "e850b3b0386a80c594a655aef840b6f28eb75e7f02f91ea8f1939a4b5e62a990",
  "3508fb11a90cd7082ec73172df4226119fe538e121ffde32cb4206e0395c3519",
  "50eb4a1545c085417354fa5b5a48c3abe7d06d2887f4a51736fee4627d63bec4",
];

/** Mainnet USDT's address: the devnode's 6-decimals token lives here so default whitelists work unchanged. */
export const USDT_ADDRESS = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
/** Mainnet USDD's address: the devnode's 18-decimals token. */
export const USDD_ADDRESS = "TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn";

const TRC10_PER_ACCOUNT: Record<string, number> = { "1000001": 1_000_000_000_000, "1000002": 1_000_000 };
const USDT_PER_ACCOUNT = "1000000000000"; // 1 000 000 USDT (6 decimals)
const USDD_PER_ACCOUNT = "1000000000000000000000000"; // 1 000 000 USDD (18 decimals)

function devKey(privateKey: string): DevKey {
  const address = addressFromPrivateKey(privateKey);
  return { privateKey, base58: addressToBase58(address), hex: toHex(address) };
}

/**
 * The forwarder's address: `41` + the last 20 bytes of keccak256 of a fixed label. It exists from genesis, as the
 * devnode does not deploy contracts (java-tron would derive it from the deploying transaction's id and owner).
 */
function forwarderAddress(): Uint8Array {
  return fromEvmAddress(keccak_256("chaingate tron-devnode forwarder").subarray(12));
}

function hexOf(base58: string): string {
  return toHex(addressFromBase58(base58) as Uint8Array);
}

/** Builds the (always identical) genesis description. */
export function createGenesis(): TronDevnodeGenesis {
  const witness = devKey(WITNESS_PRIVATE_KEY);
  const accounts: DevAccount[] = ACCOUNT_PRIVATE_KEYS.map((privateKey) => ({
    ...devKey(privateKey),
    balanceSun: DEV_ACCOUNT_BALANCE_SUN,
    trc10: { ...TRC10_PER_ACCOUNT },
    trc20: { [USDT_ADDRESS]: USDT_PER_ACCOUNT, [USDD_ADDRESS]: USDD_PER_ACCOUNT },
  }));
  const issuer = accounts[0]?.hex ?? witness.hex;
  const holders = BigInt(accounts.length);
  const forwarder = forwarderAddress();
  return {
    witness,
    accounts,
    forwarder: { base58: addressToBase58(forwarder), hex: toHex(forwarder), name: "Forwarder", originHex: issuer },
    timestamp: GENESIS_TIMESTAMP,
    trc10: [
      {
        id: "1000001",
        name: "DevToken",
        abbr: "DTK",
        precision: 6,
        totalSupply: 1_000_000_000_000 * accounts.length,
        description: "tron-devnode TRC-10 token (6 decimals)",
        url: "https://example.invalid/devtoken",
        ownerHex: issuer,
      },
      {
        id: "1000002",
        name: "DevPoints",
        abbr: "DPT",
        precision: 0,
        totalSupply: 1_000_000 * accounts.length,
        description: "tron-devnode TRC-10 token (no decimals)",
        url: "https://example.invalid/devpoints",
        ownerHex: issuer,
      },
    ],
    trc20: [
      {
        base58: USDT_ADDRESS,
        hex: hexOf(USDT_ADDRESS),
        name: "Tether USD",
        symbol: "USDT",
        decimals: 6,
        totalSupply: (BigInt(USDT_PER_ACCOUNT) * holders).toString(),
        originHex: issuer,
        transferReturnsFalse: true,
      },
      {
        base58: USDD_ADDRESS,
        hex: hexOf(USDD_ADDRESS),
        name: "Decentralized USD",
        symbol: "USDD",
        decimals: 18,
        totalSupply: (BigInt(USDD_PER_ACCOUNT) * holders).toString(),
        originHex: issuer,
        transferReturnsFalse: false,
      },
    ],
  };
}
