/** POST /api/v1/eth/jsonrpc against Hardhat: the conformance suite for Ethereum. */
import { ETHEREUM_STACK_CHAIN } from "../testing/index.ts";
import { jsonRpcConformance } from "../testing/jsonrpc-conformance.ts";

jsonRpcConformance(ETHEREUM_STACK_CHAIN);
