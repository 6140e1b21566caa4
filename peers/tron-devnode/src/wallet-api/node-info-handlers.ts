/** Node endpoints: getnodeinfo and getchainparameters. */
import { CHAIN_PARAMETERS } from "../chain-parameters.ts";
import type { Ledger } from "../ledger.ts";

/** java-tron's code version reported by getnodeinfo (TronWeb reads it). */
export const NODE_CODE_VERSION = "4.8.0";
/** `getnodeinfo.configNodeInfo`: java-tron's fields; a devnode has no peers, so most values are placeholders. */
const NODE_CONFIG_INFO = {
  activeNodeSize: 0,
  allowAdaptiveEnergy: 0,
  allowCreationOfContracts: 1,
  backupListenPort: 10001,
  backupMemberSize: 0,
  backupPriority: 8,
  codeVersion: NODE_CODE_VERSION,
  dbVersion: 2,
  discoverEnable: false,
  listenPort: 18888,
  maxConnectCount: 30,
  maxTimeRatio: 5,
  minParticipationRate: 0,
  minTimeRatio: 0,
  p2pVersion: "tron-devnode",
  passiveNodeSize: 0,
  sameIpMaxConnectCount: 2,
  sendNodeSize: 0,
  supportConstant: true,
  versionNum: "0",
} as const;

/** `getchainparameters`: the chain parameters; a zero value is left out, as protobuf JSON prints it. */
export function getChainParameters(): unknown {
  return { chainParameter: CHAIN_PARAMETERS.map(({ key, value }) => (value === 0 ? { key } : { key, value })) };
}

/** `getnodeinfo`: the head and solidified blocks, with placeholder peer and machine figures. */
export function getNodeInfo(ledger: Ledger): unknown {
  const head = ledger.head;
  const solid = ledger.solid;
  return {
    activeConnectCount: 0,
    beginSyncNum: head.raw.number,
    block: `Num:${head.raw.number},ID:${head.idHex}`,
    cheatWitnessInfoMap: {},
    configNodeInfo: NODE_CONFIG_INFO,
    currentConnectCount: 0,
    machineInfo: {
      cpuCount: 2,
      javaVersion: "tron-devnode (Node.js " + process.versions.node + ")",
      jvmFreeMemory: 0,
      jvmTotalMemory: 0,
      osName: process.platform,
      processCpuRate: 0,
      threadCount: 1,
    },
    passiveConnectCount: 0,
    peerList: [],
    solidityBlock: `Num:${solid.raw.number},ID:${solid.idHex}`,
    totalFlow: 0,
  };
}
