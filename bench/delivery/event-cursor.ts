/**
 * The event cursor (issue #30): what one page of `GET /api/v1/webhooks/{id}/events?after=&limit=100`
 * costs in the database with a history of 1,000,000 events against a history of 1,000, read at
 * random points of each (the bounds and the page, as the endpoint reads them), over real Postgres.
 * Target: the large history's p50 within 2× the small one's.
 *
 * BENCH_CURSOR_EVENTS (1,000,000): the large history's events.
 */
import { createTestDatabase } from "@chaingate/testing";
import { openEventArchive, type EventArchive } from "@chaingate/delivery/testing";

const LARGE = Number(process.env.BENCH_CURSOR_EVENTS ?? 1_000_000);
const SMALL = 1_000;
const PAGE = 100;
const READS = 300;
/** About a transfer notification's size. */
const BODY_BYTES = 600;
const TARGET_RATIO = 2;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function measureReads(archive: EventArchive, webhookId: number, events: number): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let read = 0; read < READS; read++) {
    const after = Math.floor(Math.random() * (events - PAGE));
    const started = performance.now();
    const page = await archive.readPage(webhookId, after, PAGE);
    times.push(performance.now() - started);
    if (page.length !== PAGE || page[0]!.sequence !== after + 1) throw new Error(`page after ${after} read ${page.length} events`);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

export async function benchEventCursor(): Promise<boolean> {
  const database = await createTestDatabase();
  const archive = await openEventArchive(database.connectionString);
  try {
    const small = await archive.createWebhookWithEvents(SMALL, BODY_BYTES);
    const large = await archive.createWebhookWithEvents(LARGE, BODY_BYTES);
    // Warm both, then alternate so neither gets a quieter machine.
    await measureReads(archive, small, SMALL);
    await measureReads(archive, large, LARGE);
    const smallFigures = await measureReads(archive, small, SMALL);
    const largeFigures = await measureReads(archive, large, LARGE);
    const ratio = largeFigures.p50 / smallFigures.p50;
    const passed = ratio <= TARGET_RATIO;
    console.log(
      `event cursor, pages of ${PAGE}: history of ${SMALL.toLocaleString("en")} p50 ${smallFigures.p50.toFixed(2)} ms, p99 ${smallFigures.p99.toFixed(2)} ms; ` +
        `history of ${LARGE.toLocaleString("en")} p50 ${largeFigures.p50.toFixed(2)} ms, p99 ${largeFigures.p99.toFixed(2)} ms; ` +
        `ratio ${ratio.toFixed(2)}   target <= ${TARGET_RATIO}   ${passed ? "PASS" : "FAIL"}`,
    );
    return passed;
  } finally {
    await archive.close();
    await database.drop();
  }
}
