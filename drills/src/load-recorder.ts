/**
 * Bounded load for fault drills: a few workers send requests in turn until stopped, and every
 * answer (or the lack of one) is recorded with its time, so a drill can say what happened during
 * each outage and how long recovery took.
 */

/** A client gives up on a request after this: an answer later than it counts as none. */
export const CLIENT_TIMEOUT_MS = 15_000;

export interface LoadRequest {
  kind: string;
  url: string;
  init?: RequestInit;
}

export interface Answer {
  kind: string;
  /** ms since the recorder started */
  sentAt: number;
  latencyMs: number;
  /** undefined: no answer (connection error or client timeout) */
  status?: number;
  body?: unknown;
  error?: string;
}

export interface LoadRecorder {
  answers: Answer[];
  /** ms since the recorder started */
  now(): number;
  stop(): Promise<void>;
}

/** Runs `workers` loops, each sending `next()` one after the other (at most `maxPerSecond` in all). */
export function startLoad(next: (sequence: number) => LoadRequest, options: { workers: number; maxPerSecond: number }): LoadRecorder {
  const started = Date.now();
  const now = () => Date.now() - started;
  const answers: Answer[] = [];
  let stopped = false;
  let sequence = 0;
  const gapMs = (1000 * options.workers) / options.maxPerSecond;

  async function worker(): Promise<void> {
    while (!stopped) {
      const request = next(sequence++);
      const sentAt = now();
      const answer: Answer = { kind: request.kind, sentAt, latencyMs: 0 };
      try {
        const response = await fetch(request.url, { ...request.init, signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
        answer.status = response.status;
        const text = await response.text();
        try {
          answer.body = JSON.parse(text);
        } catch {
          answer.body = text.slice(0, 200);
        }
      } catch (error) {
        answer.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
      answer.latencyMs = now() - sentAt;
      answers.push(answer);
      const wait = gapMs - answer.latencyMs;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  const running = Array.from({ length: options.workers }, () => worker());
  return {
    answers,
    now,
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/** One line of the drill report: how the requests sent in a window were answered. */
export interface WindowSummary {
  /** Requests answered (or given up on) in the window. */
  sent: number;
  ok: number;
  /** "<status> <message>" → count */
  documentedErrors: Record<string, number>;
  undocumented: Answer[];
  unanswered: number;
  /** ms from the end of the fault to the last failed answer (0: none failed after it). */
  recoveryMs: number;
}

/**
 * The answers that arrived in [from, to): a request sent just before a fault and answered during it
 * belongs to that fault, not to the quiet time before it.
 */
export function summarise(
  answers: Answer[],
  from: number,
  to: number,
  faultEndsAt: number,
  isDocumented: (answer: Answer) => boolean,
): WindowSummary {
  const window = answers.filter((a) => a.sentAt + a.latencyMs >= from && a.sentAt + a.latencyMs < to);
  const summary: WindowSummary = { sent: window.length, ok: 0, documentedErrors: {}, undocumented: [], unanswered: 0, recoveryMs: 0 };
  for (const answer of window) {
    const failed = answer.status === undefined || answer.status >= 400;
    if (answer.status === undefined) summary.unanswered++;
    else if (!failed) summary.ok++;
    else if (isDocumented(answer)) {
      const label = `${answer.status} ${(answer.body as { message?: string } | undefined)?.message ?? ""}`.trim();
      summary.documentedErrors[label] = (summary.documentedErrors[label] ?? 0) + 1;
    } else summary.undocumented.push(answer);
    if (failed) summary.recoveryMs = Math.max(summary.recoveryMs, answer.sentAt + answer.latencyMs - faultEndsAt);
  }
  return summary;
}
