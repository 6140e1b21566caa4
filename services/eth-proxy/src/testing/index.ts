export { startEthStack, type EthStack } from "./start-eth-stack.ts";
export { startRecordingRelay, type RecordingRelay } from "./recording-relay.ts";
