/** Exact decimal amounts of every chain: whole-unit text ↔ integer base units. */
export {
  InvalidAmountError,
  decimalToBaseUnits,
  formatUnits,
  hexToBaseUnits,
  integerToBaseUnits,
  toBaseUnits,
  toPositiveBaseUnits,
  type AmountProblem,
  type AmountResult,
} from "./decimal-amount.ts";
