export { startTrxStack, type TrxStack, type TrxStackOptions } from "./start-trx-stack.ts";
