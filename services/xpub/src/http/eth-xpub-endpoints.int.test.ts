/**
 * The Ethereum xpub endpoints (the suite in testing/evm-xpub-conformance.ts) under `/api/v1/eth/xpub`;
 * evm-chain-xpub-endpoints.int.test.ts runs it under a configured chain's prefix.
 */
import { evmXpubConformance } from "../testing/evm-xpub-conformance.ts";

evmXpubConformance({ prefix: "eth", chain: "ETH", chainName: "Ethereum" });
