/**
 * Test contracts compiled at run time with solc-js (no compiler binary to download), each source
 * once per process.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** Hardhat 2's default hardfork (and one Anvil runs); solc would otherwise target a newer one. */
const EVM_VERSION = "cancun";

export interface CompiledContract {
  /** Creation bytecode, 0x… */
  bytecode: string;
  abi: unknown[];
}

const compiled = new Map<string, Record<string, CompiledContract>>();

/** The contracts of `contracts/<file>`, by name. */
export function compileTestContracts(file: string): Record<string, CompiledContract> {
  const cached = compiled.get(file);
  if (cached) return cached;
  // solc-js is CommonJS and large: loaded only when a contract is deployed.
  const solc = createRequire(import.meta.url)("solc") as { compile(input: string): string };
  const input = {
    language: "Solidity",
    sources: { [file]: { content: readFileSync(new URL(`./contracts/${file}`, import.meta.url), "utf8") } },
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((error) => error.severity === "error");
  if (errors.length) throw new Error(`${file} does not compile:\n${errors.map((error) => error.formattedMessage).join("\n")}`);
  const contracts = Object.fromEntries(
    Object.entries(output.contracts![file]!).map(([name, contract]) => [
      name,
      { bytecode: `0x${contract.evm.bytecode.object}`, abi: contract.abi },
    ]),
  );
  compiled.set(file, contracts);
  return contracts;
}
