/**
 * Energy the devnode's native TRC-20 contracts charge, configurable so that fee limits chosen against the
 * devnode are realistic. Defaults are current mainnet USDT's: the 2020 base costs times java-tron's dynamic
 * energy factor (`VM.play`: every opcode of a popular contract costs `energy × factor / 10 000` more, the
 * excess reported as `energy_penalty_total`).
 */

/** Energy per call, before the dynamic-energy penalty; `energyFactor` is java-tron's `contract_state.energy_factor`. */
export interface EnergyCosts {
  /** `transfer` to an address that already holds the token (one SSTORE update). */
  transfer: number;
  /** Added to `transfer`/`transferFrom` when the recipient's balance slot is new (SSTORE to a zero slot). */
  newHolderExtra: number;
  /** Added to `transfer` for `transferFrom` (the allowance update). */
  transferFromExtra: number;
  /** `approve`. */
  approve: number;
  /** `balanceOf` and `allowance`. */
  balanceOf: number;
  /** `name`, `symbol`, `decimals`, `totalSupply`. */
  getter: number;
  /** Energy spent before a call reverts. */
  revert: number;
  /**
   * Dynamic energy factor in java-tron's unit (1/10 000): the penalty is `floor(base × energyFactor / 10 000)`.
   * Mainnet USDT sits at the maximum, 34 000 (3.4×); 0 disables the penalty.
   */
  energyFactor: number;
}

/** java-tron's `DYNAMIC_ENERGY_FACTOR_DECIMAL`. */
export const DYNAMIC_ENERGY_FACTOR_DECIMAL = 10_000;

/**
 * Current-mainnet-like costs: a USDT transfer to a holder costs 14 631 + 49 745 = 64 376 energy (mainnet:
 * about 64 285), to a new holder 29 631 + 100 745 = 130 376 (mainnet: about 130 285).
 */
export const DEFAULT_ENERGY_COSTS: Readonly<EnergyCosts> = {
  transfer: 14_631,
  newHolderExtra: 15_000,
  transferFromExtra: 5_900,
  approve: 22_315,
  balanceOf: 935,
  getter: 543,
  revert: 621,
  energyFactor: 34_000,
};

/** Fills in the defaults; throws when a value is not a non-negative safe integer. */
export function resolveEnergyCosts(overrides: Partial<EnergyCosts> = {}): EnergyCosts {
  const costs = { ...DEFAULT_ENERGY_COSTS, ...overrides };
  for (const [name, value] of Object.entries(costs)) {
    if (!Object.hasOwn(DEFAULT_ENERGY_COSTS, name)) throw new Error(`unknown energy cost "${name}"`);
    if (!Number.isSafeInteger(value) || value < 0)
      throw new Error(`energy cost ${name} must be a non-negative integer, got ${String(value)}`);
  }
  return costs;
}

/** The dynamic-energy penalty on `energy` (what java-tron adds per opcode, summed). */
export function energyPenalty(energy: number, costs: EnergyCosts): number {
  return Math.floor((energy * costs.energyFactor) / DYNAMIC_ENERGY_FACTOR_DECIMAL);
}
