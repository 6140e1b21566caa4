import { describe, expect, it } from "vitest";
import { allocateSlots, type DueWebhook, type SlotGrant, type SlotLimits } from "./allocate-slots.ts";

const t0 = Date.parse("2026-11-25T12:00:00Z");

function due(webhookId: number, accountId: number, overrides: Partial<DueWebhook> = {}): DueWebhook {
  return { webhookId, accountId, oldestDueAt: t0 + webhookId, dueJobs: 8, breakerOpen: false, breakerReady: true, ...overrides };
}

function limits(overrides: Partial<SlotLimits> = {}): SlotLimits {
  return { free: 256, perWebhook: 8, perAccount: 64, webhookInFlight: new Map(), accountInFlight: new Map(), ...overrides };
}

/** Slots given per account. */
function perAccount(grants: SlotGrant[], webhooks: DueWebhook[]): Record<number, number> {
  const owner = new Map(webhooks.map((w) => [w.webhookId, w.accountId]));
  const totals: Record<number, number> = {};
  for (const grant of grants) totals[owner.get(grant.webhookId)!] = (totals[owner.get(grant.webhookId)!] ?? 0) + grant.jobs;
  return totals;
}

describe("sharing a claim's free slots", () => {
  it("gives every webhook what it has due when slots are plenty", () => {
    const webhooks = [due(1, 1, { dueJobs: 3 }), due(2, 2, { dueJobs: 8 })];
    expect(allocateSlots(webhooks, limits())).toEqual([
      { webhookId: 1, jobs: 3, probe: false },
      { webhookId: 2, jobs: 8, probe: false },
    ]);
  });

  it("splits scarce slots evenly between accounts, however many webhooks and however old the backlog of one", () => {
    // Account 1: 50 webhooks with old backlogs; account 2: one webhook with fresh jobs.
    const webhooks = [...Array.from({ length: 50 }, (_, n) => due(n + 1, 1)), due(100, 2, { oldestDueAt: t0 + 60_000 })];
    expect(perAccount(allocateSlots(webhooks, limits({ free: 10 })), webhooks)).toEqual({ 1: 5, 2: 5 });
  });

  it("gives the next slot to the account with fewer attempts in flight", () => {
    const webhooks = [due(1, 1), due(2, 2)];
    const grants = allocateSlots(webhooks, limits({ free: 4, accountInFlight: new Map([[1, 6]]), webhookInFlight: new Map([[1, 6]]) }));
    // Account 1 has 6 in flight, account 2 none: all 4 go to account 2.
    expect(perAccount(grants, webhooks)).toEqual({ 2: 4 });
  });

  it("caps one account's attempts in flight", () => {
    const webhooks = Array.from({ length: 40 }, (_, n) => due(n + 1, 1));
    const grants = allocateSlots(webhooks, limits({ accountInFlight: new Map([[1, 60]]) }));
    expect(perAccount(grants, webhooks)).toEqual({ 1: 4 });
  });

  it("within an account, shares between its webhooks, least busy first", () => {
    const webhooks = [due(1, 1), due(2, 1), due(3, 1)];
    const grants = allocateSlots(webhooks, limits({ free: 6, webhookInFlight: new Map([[1, 2]]), accountInFlight: new Map([[1, 2]]) }));
    expect(grants).toEqual([
      { webhookId: 1, jobs: 1, probe: false },
      { webhookId: 2, jobs: 3, probe: false },
      { webhookId: 3, jobs: 2, probe: false },
    ]);
  });

  it("keeps the per-webhook cap and what is due", () => {
    const grants = allocateSlots([due(1, 1, { dueJobs: 100 }), due(2, 1, { dueJobs: 2 })], limits({ webhookInFlight: new Map([[1, 5]]) }));
    expect(grants).toEqual([
      { webhookId: 1, jobs: 3, probe: false },
      { webhookId: 2, jobs: 2, probe: false },
    ]);
  });

  it("gives an open breaker one attempt when its cool-down is over and none is in flight, else nothing", () => {
    const open = { breakerOpen: true, dueJobs: 8 };
    expect(allocateSlots([due(1, 1, { ...open, breakerReady: true })], limits())).toEqual([{ webhookId: 1, jobs: 1, probe: true }]);
    expect(allocateSlots([due(1, 1, { ...open, breakerReady: false })], limits())).toEqual([]);
    expect(allocateSlots([due(1, 1, { ...open, breakerReady: true })], limits({ webhookInFlight: new Map([[1, 1]]) }))).toEqual([]);
  });

  it("gives nothing when no slot is free", () => {
    expect(allocateSlots([due(1, 1)], limits({ free: 0 }))).toEqual([]);
  });
});
