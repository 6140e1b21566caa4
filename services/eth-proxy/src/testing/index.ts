export { ETHEREUM_STACK_CHAIN, POLYGON_STACK_CHAIN, startEthStack, type EthStack, type EthStackChain } from "./start-eth-stack.ts";
export { startRecordingRelay, type RecordingRelay } from "./recording-relay.ts";
