/**
 * The REST conformance of /api/v1/eth, run unchanged under /api/v1/polygon (issue 31): a Hardhat
 * node answering Polygon's chain id 137, configured as an operator adds it (EVM_CHAINS).
 */
import { POLYGON_STACK_CHAIN } from "../testing/index.ts";
import { ethProxyTest } from "../testing/eth-proxy-fixtures.ts";
import { restEndpointsConformance } from "../testing/rest-endpoints-conformance.ts";

ethProxyTest.scoped({ ethStackSettings: { chain: POLYGON_STACK_CHAIN } });
restEndpointsConformance(POLYGON_STACK_CHAIN);
