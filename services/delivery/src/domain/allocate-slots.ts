/**
 * How a claim shares free slots among the webhooks with due jobs: fair between accounts first, then
 * between one account's webhooks. Each slot goes to the account with the fewest attempts in flight
 * (counting the slots already given in this claim; ties: the oldest due job first), and within it to
 * the webhook with the fewest in flight (same tie rule): a max-min fair share, so one account's
 * large or old backlog takes slots only while no other account with due work has fewer. Caps: per
 * webhook, per account, and one attempt for a webhook whose breaker is open (none during its
 * cool-down). Pure, so the rule is tested without a database.
 */

/** A webhook with due jobs, as the claim sees it. */
export interface DueWebhook {
  webhookId: number;
  accountId: number;
  /** Due time of its oldest due job (ms). */
  oldestDueAt: number;
  /** Due jobs it has (read up to the per-webhook cap). */
  dueJobs: number;
  /** The circuit breaker is open (domain/circuit-breaker.ts). */
  breakerOpen: boolean;
  /** An open breaker's cool-down (or its one attempt's lease) is over. */
  breakerReady: boolean;
}

export interface SlotLimits {
  free: number;
  perWebhook: number;
  perAccount: number;
  /** Attempts in flight in this process, per webhook and per account. */
  webhookInFlight: ReadonlyMap<number, number>;
  accountInFlight: ReadonlyMap<number, number>;
}

/** Jobs to claim of one webhook; `probe`: its breaker is open, so this is its one attempt. */
export interface SlotGrant {
  webhookId: number;
  jobs: number;
  probe: boolean;
}

interface Queue {
  webhook: DueWebhook;
  room: number;
  load: number;
  oldestDueAt: number;
  granted: number;
}

interface AccountQueue {
  room: number;
  load: number;
  oldestDueAt: number;
  webhooks: Queue[];
}

function webhookRoom(webhook: DueWebhook, inFlight: number, perWebhook: number): number {
  const cap = webhook.breakerOpen ? (webhook.breakerReady && inFlight === 0 ? 1 : 0) : perWebhook - inFlight;
  return Math.max(0, Math.min(cap, webhook.dueJobs));
}

/** Least loaded first, then the oldest due job. */
function lighter(a: { load: number; oldestDueAt: number }, b: { load: number; oldestDueAt: number }): boolean {
  return a.load < b.load || (a.load === b.load && a.oldestDueAt < b.oldestDueAt);
}

export function allocateSlots(due: readonly DueWebhook[], limits: SlotLimits): SlotGrant[] {
  const accounts = new Map<number, AccountQueue>();
  for (const webhook of due) {
    const inFlight = limits.webhookInFlight.get(webhook.webhookId) ?? 0;
    const room = webhookRoom(webhook, inFlight, limits.perWebhook);
    if (room === 0) continue;
    let account = accounts.get(webhook.accountId);
    if (!account) {
      const load = limits.accountInFlight.get(webhook.accountId) ?? 0;
      account = { room: limits.perAccount - load, load, oldestDueAt: webhook.oldestDueAt, webhooks: [] };
      accounts.set(webhook.accountId, account);
    }
    account.oldestDueAt = Math.min(account.oldestDueAt, webhook.oldestDueAt);
    account.webhooks.push({ webhook, room, load: inFlight, oldestDueAt: webhook.oldestDueAt, granted: 0 });
  }
  const open = [...accounts.values()].filter((account) => account.room > 0);
  let free = limits.free;
  while (free > 0 && open.length) {
    let pick = 0;
    for (let i = 1; i < open.length; i++) if (lighter(open[i]!, open[pick]!)) pick = i;
    const account = open[pick]!;
    let next: Queue | undefined;
    for (const queue of account.webhooks) if (queue.room > 0 && (!next || lighter(queue, next))) next = queue;
    if (!next) {
      open.splice(pick, 1);
      continue;
    }
    next.room--;
    next.load++;
    next.granted++;
    account.room--;
    account.load++;
    free--;
    if (account.room === 0) open.splice(pick, 1);
  }
  return [...accounts.values()].flatMap((account) =>
    account.webhooks
      .filter((queue) => queue.granted > 0)
      .map((queue) => ({ webhookId: queue.webhook.webhookId, jobs: queue.granted, probe: queue.webhook.breakerOpen })),
  );
}
