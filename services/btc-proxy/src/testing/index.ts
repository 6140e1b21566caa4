export { MATURE_BLOCKS, startBtcStack, type BtcStack } from "./start-btc-stack.ts";
