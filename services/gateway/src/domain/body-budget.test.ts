import { describe, expect, it } from "vitest";
import { createBodyBudget } from "./body-budget.ts";

describe("createBodyBudget", () => {
  it("refuses a reservation that would pass the bound, and admits it again once bytes are released", () => {
    const budget = createBodyBudget(10);
    expect(budget.tryReserve(6)).toBe(true);
    expect(budget.tryReserve(5)).toBe(false);
    expect(budget.tryReserve(4)).toBe(true);
    expect(budget.reservedBytes).toBe(10);
    budget.release(6);
    expect(budget.tryReserve(5)).toBe(true);
    expect(budget.reservedBytes).toBe(9);
  });
});
