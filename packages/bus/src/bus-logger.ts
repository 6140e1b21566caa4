/** The narrow logger the bus needs (pino satisfies it). */
export interface BusLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}
