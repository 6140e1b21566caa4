/**
 * Deletes the JetStream streams earlier test runs left behind: every test file, drill and
 * benchmark makes streams under a namespace of its own (`t1a2b3c4d_TRANSFERS`, `scan…`, `bench…`)
 * and most never delete them, so a machine that runs the suite every day would hold thousands
 * (1,647 streams, 137 MB after a day of runs here) and every stream operation would pay for them.
 * Only names of the test namespaces' forms, and only streams older than an hour: a run going on
 * beside this one, and a dev stack's own streams, are left alone.
 */
import { connect } from "nats";

/** The namespaces tests, drills and benches make (testNamespace(), the event recorder, the notification stacks, the benches). */
const TEST_STREAM = /^(t|scan|n|m)[0-9a-f]{8}_|^(bench|probe|rss)[a-z0-9]*_/;
const STALE_AFTER_MS = 3_600_000;

/** How many streams it deleted; never throws (a prune that fails leaves the streams, nothing else). */
export async function pruneTestStreams(natsUrl: string, now = Date.now()): Promise<number> {
  let connection;
  try {
    connection = await connect({ servers: natsUrl, name: "test-stream-prune", timeout: 5_000 });
    const manager = await connection.jetstreamManager();
    let deleted = 0;
    for await (const info of manager.streams.list()) {
      const name = info.config.name;
      if (!TEST_STREAM.test(name) || now - Date.parse(info.created) < STALE_AFTER_MS) continue;
      if (await manager.streams.delete(name).catch(() => false)) deleted++;
    }
    return deleted;
  } catch {
    return 0;
  } finally {
    await connection?.close();
  }
}
