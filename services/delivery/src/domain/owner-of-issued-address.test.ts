import { describe, expect, it } from "vitest";
import { ownerOfIssuedAddress } from "./owner-of-issued-address.ts";

const [ALICE, BOB, CAROL] = [1, 2, 3];

describe("ownerOfIssuedAddress", () => {
  it("is the event's account for a key never moved", () => {
    expect(ownerOfIssuedAddress(undefined, { account_id: ALICE, index: 0 })).toBe(ALICE);
  });

  it("is the holder's for an address issued before the move, published as the old account's and consumed after it", () => {
    const movedToBob = { account_id: BOB, next_index: 5 };
    expect(ownerOfIssuedAddress(movedToBob, { account_id: ALICE, index: 0 })).toBe(BOB);
    expect(ownerOfIssuedAddress(movedToBob, { account_id: ALICE, index: 4 })).toBe(BOB);
  });

  it("is the event's for an address issued after the move: the holder's, or a later holder's not applied yet", () => {
    const movedToBob = { account_id: BOB, next_index: 5 };
    expect(ownerOfIssuedAddress(movedToBob, { account_id: BOB, index: 5 })).toBe(BOB);
    expect(ownerOfIssuedAddress(movedToBob, { account_id: CAROL, index: 7 })).toBe(CAROL);
  });
});
