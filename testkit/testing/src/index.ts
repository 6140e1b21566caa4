export { provideTestInfrastructure, type TestInfrastructure } from "./infrastructure.ts";
export { createTestDatabase, type TestDatabase } from "./create-test-database.ts";
export {
  startLitecoindRegtest,
  DEV_LITECOIND_OPTIONS,
  LitecoindRpcError,
  type LitecoindRegtest,
  type LitecoindRegtestOptions,
} from "./litecoind-regtest.ts";
export {
  ephemeralPortFloor,
  freePort,
  FIRST_CHOSEN_PORT,
  readStartArguments,
  spawnService,
  startServiceProcess,
  stopChild,
  waitForExit,
  waitForHttp,
  waitForPort,
  STOP_TIMEOUT_MS,
  type ServiceProcess,
  type SpawnedService,
} from "./processes.ts";
export { startPrivatePostgres, type PrivatePostgres } from "./private-postgres.ts";
export { startScriptedHttpNode, type ScriptedBehaviour, type ScriptedHttpNode } from "./scripted-http-node.ts";
export { startPrivateNats, startPrivateNatsCluster, type PrivateNats, type PrivateNatsCluster } from "./private-nats.ts";
export { silentLogger } from "./silent-logger.ts";
export { zmqHashBlock, zmqMempoolAdded } from "./bitcoind-zmq-messages.ts";
export { seededRandom, type SeededRandom } from "./seeded-random.ts";
export { startOtlpCollector, type CollectedSpan, type OtlpCollector } from "./otlp-collector.ts";
export {
  startHardhat,
  HardhatRpcError,
  HARDHAT_ACCOUNT_COUNT,
  HARDHAT_CHAIN_ID,
  HARDHAT_MNEMONIC,
  type HardhatAccount,
  type HardhatNode,
  type StartHardhatOptions,
} from "./hardhat-node.ts";
export { startAnvil, anvilBinary, AnvilRpcError, type AnvilNode, type StartAnvilOptions } from "./anvil-node.ts";
export { deployValueRouter, type ValueRouter } from "./value-router.ts";
export { compileTestContracts, type CompiledContract } from "./solidity.ts";
export { deployUsdtLikeToken, usdtLikeTokenBytecode, USDT_LIKE_DECIMALS, USDT_LIKE_SUPPLY, type DeployedToken } from "./usdt-like-token.ts";
export { deployUnlistedToken, type UnlistedToken, type UnlistedTokenKind } from "./unlisted-tokens.ts";
export {
  startNodeFaultProxy,
  NO_FAULTS,
  type NodeFaultCounters,
  type NodeFaultProxy,
  type NodeFaultProxyChain,
  type NodeFaultProxyOptions,
  type NodeFaults,
  type AlternateBackend,
} from "./node-fault-proxy.ts";
export { checkAnswers } from "./openapi-answers/check-answers.ts";
export { accountSequence, internalEdge, TEST_INTERNAL_TOKEN, type InternalEdge } from "./internal-edge.ts";
export { testNamespace } from "./test-namespace.ts";
export type { IntegrationFixtures, TestBus } from "./fixtures/integration-test.ts";
