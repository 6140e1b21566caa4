import { describe, expect, it } from "vitest";
import { createBodyBudget } from "./body-budget.ts";

describe("createBodyBudget", () => {
  it("refuses a reservation that would pass the bound, and admits it again once bytes are released", () => {
    const budget = createBodyBudget(10, 10);
    expect(budget.tryReserve(1, 6)).toBe("reserved");
    expect(budget.tryReserve(2, 5)).toBe("budget full");
    expect(budget.tryReserve(2, 4)).toBe("reserved");
    expect(budget.reservedBytes).toBe(10);
    budget.release(1, 6);
    expect(budget.tryReserve(3, 5)).toBe("reserved");
    expect(budget.reservedBytes).toBe(9);
  });

  it("holds each account to its share, leaving the rest to the others", () => {
    const budget = createBodyBudget(100, 25);
    for (let i = 0; i < 5; i++) expect(budget.tryReserve(1, 5)).toBe("reserved");
    expect(budget.tryReserve(1, 1)).toBe("account share full");
    expect(budget.reservedBytesOf(1)).toBe(25);
    expect(budget.tryReserve(2, 25)).toBe("reserved");
    budget.release(1, 5);
    expect(budget.tryReserve(1, 5)).toBe("reserved");
  });

  it("lets an account holding nothing reserve one body larger than its share, and no second one", () => {
    const budget = createBodyBudget(100, 25);
    expect(budget.tryReserve(1, 40)).toBe("reserved");
    expect(budget.tryReserve(1, 1)).toBe("account share full");
    budget.release(1, 40);
    expect(budget.reservedBytesOf(1)).toBe(0);
    expect(budget.tryReserve(1, 40)).toBe("reserved");
  });

  it("refuses for the whole budget even an account holding nothing", () => {
    const budget = createBodyBudget(30, 25);
    expect(budget.tryReserve(1, 25)).toBe("reserved");
    expect(budget.tryReserve(2, 10)).toBe("budget full");
  });
});
