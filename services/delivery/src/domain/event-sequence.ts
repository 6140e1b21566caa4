/**
 * A webhook's events are numbered 1, 2, 3, … without gaps (issue #30): the number is in the body
 * (`sequence`) and in this header, the same across retries and replays, so a subscriber that sees a
 * number jump knows what it missed and reads it with the cursor (`GET …/events?after=`).
 */
import { ChaingateError } from "@chaingate/errors";

export const SEQUENCE_HEADER = "x-service-sequence";

/** The sequence header of a notification; none for a test event (test events are not numbered). */
export function sequenceHeader(sequence: number | null): Record<string, string> {
  return sequence === null ? {} : { [SEQUENCE_HEADER]: String(sequence) };
}

/** Where a cursor stands against what the webhook keeps: its numbers run from `prunedThrough + 1` to `newest`. */
export type CursorCheck =
  | { ok: true }
  | { ok: false; reason: "pruned"; oldestKept: number }
  | { ok: false; reason: "ahead"; newest: number };

/**
 * A cursor `after` (the last sequence the client has) can be read on when nothing after it was
 * deleted (`after >= prunedThrough`) and it names a number that was given (`after <= newest`): a
 * number not yet given can only be a client's mistake, and answering it with an empty page would
 * hide every event up to it.
 */
export function checkCursor(after: number, prunedThrough: number, newest: number): CursorCheck {
  if (after < prunedThrough) return { ok: false, reason: "pruned", oldestKept: prunedThrough + 1 };
  if (after > newest) return { ok: false, reason: "ahead", newest };
  return { ok: true };
}

/** A cursor whose successors the retention deleted: 410 `{message, oldest_sequence}`. */
export class EventsPrunedError extends ChaingateError {
  override name = "EventsPrunedError" as const;
  readonly oldestSequence: number;
  constructor(after: number, oldestSequence: number) {
    super(
      "events_pruned",
      `Events after sequence ${after} were deleted after the retention period; the oldest kept is ${oldestSequence}.`,
      { retryable: false },
    );
    this.oldestSequence = oldestSequence;
  }
}
