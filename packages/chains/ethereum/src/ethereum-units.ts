/** Ether's base unit is the wei: 1 ETH = 10^18 wei. */
export const ETHER_DECIMALS = 18;
