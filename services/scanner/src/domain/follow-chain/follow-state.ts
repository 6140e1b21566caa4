/** What the follower remembers between passes. */
export interface FollowState {
  /** Whether published matches above the cursor may exist (after a start or a failed pass). */
  unsettled: boolean;
  /** Since when the node has been behind the cursor (epoch ms); undefined while it is not. */
  behindSince: number | undefined;
  /** Whether blocks are waiting for the watch feed. */
  waitingForFeed: boolean;
}
