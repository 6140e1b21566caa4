/** TRX's base unit is the sun: 1 TRX = 10^6 sun. */
export const TRX_DECIMALS = 6;
