export { backoffDelayMs, type BackoffSchedule } from "./backoff-delay.ts";
export { createWakeableSleep, type WakeableSleep } from "./wakeable-sleep.ts";
