/**
 * Work that must finish before a service exits (exporting the last spans). Services stop through
 * `process.exit()` after their graceful shutdown, and `beforeExit` never fires then: the shutdown
 * path (@chaingate/http's onShutdownSignal) runs these hooks first. The registry is a global under
 * a well-known symbol, so neither package loads the other (the preload must load before express).
 */
const HOOKS = Symbol.for("chaingate.flushBeforeExit");

export function addFlushBeforeExit(hook: () => Promise<void>): void {
  const holder = globalThis as { [HOOKS]?: Array<() => Promise<void>> };
  (holder[HOOKS] ??= []).push(hook);
}
