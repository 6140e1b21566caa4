/** The devnode's chain parameters (mainnet values where they matter), served by getchainparameters and used for fees. */

/** Sun burned per unit of energy (`getEnergyFee`). */
export const ENERGY_FEE_SUN = 100;
/** Sun burned per byte of bandwidth when free bandwidth does not cover a transaction (`getTransactionFee`). */
export const TRANSACTION_FEE_SUN_PER_BYTE = 1_000;
/** Bandwidth fee for a transaction that creates an account (`getCreateAccountFee`, 0.1 TRX). */
export const CREATE_ACCOUNT_FEE_SUN = 100_000;
/** Extra fee a TRX/TRC-10 transfer to a new account pays (`getCreateNewAccountFeeInSystemContract`, 1 TRX). */
export const CREATE_NEW_ACCOUNT_FEE_IN_SYSTEM_CONTRACT_SUN = 1_000_000;
/** Free bandwidth per account per day (`getFreeNetLimit`). */
export const FREE_NET_LIMIT_BYTES = 600;
/** Upper bound of fee_limit (`getMaxFeeLimit`, 15 000 TRX). */
export const MAX_FEE_LIMIT_SUN = 15_000_000_000;
/** Window over which used bandwidth recovers linearly (24 h). */
export const NET_WINDOW_MS = 86_400_000;
/** Bytes added to every transaction's bandwidth for its result (`Constant.MAX_RESULT_SIZE_IN_TX`). */
export const MAX_RESULT_SIZE_IN_TX = 64;
/** Largest accepted serialised transaction (`TRANSACTION_MAX_BYTE_SIZE`, 500 KiB). */
export const TRANSACTION_MAX_BYTE_SIZE = 500 * 1024;
/** Latest expiration accepted, relative to the head block time (`MAXIMUM_TIME_UNTIL_EXPIRATION`, 24 h). */
export const MAXIMUM_TIME_UNTIL_EXPIRATION_MS = 86_400_000;
/** Expiration the node's own builders put on transactions, relative to the head block time. */
export const BUILDER_EXPIRATION_MS = 60_000;
/** How many recent blocks TAPOS references may point to (java-tron keeps 65 536). */
export const TAPOS_RECENT_BLOCKS = 65_536;

/** `getchainparameters` entries, in java-tron's order for those it shares; zero values print with only `key`. */
export const CHAIN_PARAMETERS: readonly { key: string; value: number }[] = [
  { key: "getMaintenanceTimeInterval", value: 21_600_000 },
  { key: "getAccountUpgradeCost", value: 9_999_000_000 },
  { key: "getCreateAccountFee", value: CREATE_ACCOUNT_FEE_SUN },
  { key: "getTransactionFee", value: TRANSACTION_FEE_SUN_PER_BYTE },
  { key: "getAssetIssueFee", value: 1_024_000_000 },
  { key: "getWitnessPayPerBlock", value: 16_000_000 },
  { key: "getWitnessStandbyAllowance", value: 115_200_000_000 },
  { key: "getCreateNewAccountFeeInSystemContract", value: CREATE_NEW_ACCOUNT_FEE_IN_SYSTEM_CONTRACT_SUN },
  { key: "getCreateNewAccountBandwidthRate", value: 1 },
  { key: "getAllowCreationOfContracts", value: 1 },
  { key: "getRemoveThePowerOfTheGr", value: 1 },
  { key: "getEnergyFee", value: ENERGY_FEE_SUN },
  { key: "getExchangeCreateFee", value: 1_024_000_000 },
  { key: "getMaxCpuTimeOfOneTx", value: 80 },
  { key: "getAllowUpdateAccountName", value: 0 },
  { key: "getAllowSameTokenName", value: 1 },
  { key: "getAllowDelegateResource", value: 1 },
  { key: "getTotalEnergyLimit", value: 180_000_000_000 },
  { key: "getAllowTvmTransferTrc10", value: 1 },
  { key: "getTotalEnergyCurrentLimit", value: 180_000_000_000 },
  { key: "getAllowMultiSign", value: 1 },
  { key: "getAllowAdaptiveEnergy", value: 0 },
  { key: "getTotalEnergyTargetLimit", value: 12_500_000 },
  { key: "getTotalEnergyAverageUsage", value: 0 },
  { key: "getUpdateAccountPermissionFee", value: 100_000_000 },
  { key: "getMultiSignFee", value: 1_000_000 },
  { key: "getAllowAccountStateRoot", value: 0 },
  { key: "getAllowProtoFilterNum", value: 0 },
  { key: "getAllowTvmConstantinople", value: 1 },
  { key: "getAllowTvmSolidity059", value: 1 },
  { key: "getAllowTvmIstanbul", value: 1 },
  { key: "getAllowShieldedTRC20Transaction", value: 1 },
  { key: "getForbidTransferToContract", value: 1 },
  { key: "getAdaptiveResourceLimitTargetRatio", value: 10 },
  { key: "getAdaptiveResourceLimitMultiplier", value: 1_000 },
  { key: "getChangeDelegation", value: 1 },
  { key: "getWitness127PayPerBlock", value: 128_000_000 },
  { key: "getAllowMarketTransaction", value: 0 },
  { key: "getMarketSellFee", value: 0 },
  { key: "getMarketCancelFee", value: 0 },
  { key: "getFreeNetLimit", value: FREE_NET_LIMIT_BYTES },
  { key: "getTotalNetLimit", value: 43_200_000_000 },
  { key: "getAllowTvmFreeze", value: 1 },
  { key: "getAllowTvmVote", value: 1 },
  { key: "getAllowTvmLondon", value: 1 },
  { key: "getAllowTvmCompatibleEvm", value: 0 },
  { key: "getAllowHigherLimitForMaxCpuTimeOfOneTx", value: 1 },
  { key: "getAllowAssetOptimization", value: 1 },
  { key: "getAllowNewResourceModel", value: 1 },
  { key: "getAllowTransactionFeePool", value: 1 },
  { key: "getAllowBlackHoleOptimization", value: 1 },
  { key: "getAllowNewReward", value: 1 },
  { key: "getMemoFee", value: 0 },
  { key: "getAllowDelegateOptimization", value: 1 },
  { key: "getUnfreezeDelayDays", value: 14 },
  { key: "getAllowOptimizedReturnValueOfChainId", value: 1 },
  { key: "getAllowDynamicEnergy", value: 1 },
  { key: "getMaxDelegateLockPeriod", value: 864_000 },
  { key: "getAllowTvmShangHai", value: 1 },
  { key: "getAllowTvmCancun", value: 1 },
  { key: "getMaxFeeLimit", value: MAX_FEE_LIMIT_SUN },
];
