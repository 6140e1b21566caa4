/** The REST endpoints of /api/v1/eth, against Hardhat: the conformance suite for Ethereum. */
import { ETHEREUM_STACK_CHAIN } from "../testing/index.ts";
import { restEndpointsConformance } from "../testing/rest-endpoints-conformance.ts";

restEndpointsConformance(ETHEREUM_STACK_CHAIN);
