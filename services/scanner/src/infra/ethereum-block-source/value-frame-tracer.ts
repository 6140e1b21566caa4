/**
 * chaingate's own JavaScript tracer (ETH_TRACE_MODE=js), for nodes that run custom tracers (geth,
 * erigon, reth, anvil: self-hosted nodes; providers mostly refuse them). It answers, per
 * transaction, only the frames that move value, with the numbering callTracer's walk gives
 * (ethereum-call-frames.ts): a block's answer is a few KB instead of callTracer's hundreds, so the
 * scanner no longer pays for parsing every frame's input and output. The node runs the tracer (its
 * time grows instead; see docs/design/scanner.md).
 *
 * `enter`/`exit` see each internal frame (never the top-level call); `result` gets the
 * transaction's context. Kept frames wait in their own frame's list until it exits: one that
 * reverted drops its list (its own frame and everything under it), one that succeeded hands it to
 * its parent, and a transaction that failed keeps nothing. ES5, for every node's JS engine.
 *
 * revm-based nodes (anvil, reth) enter a SELFDESTRUCT as a copy of the frame that runs it (its
 * sender, its address, its call value) instead of the contract, its beneficiary and its balance:
 * the beneficiary is lost and a false frame appears. Every frame is therefore checked against the
 * one it runs in (the top-level call's parties are known only in `result`): a frame with the same
 * sender and address marks the transaction `suspect`, and the scanner reads that block with
 * callTracer instead (internal-transfers-of.ts). A real call between the same two parties can only
 * come from code run by DELEGATECALL; it costs the same re-read, never a wrong transfer.
 */
export const VALUE_FRAME_TRACER = `{
  levels: [[]],
  counts: [0],
  path: [],
  parties: [],
  firstLevel: {},
  next: 1,
  suspect: false,
  fault: function () {},
  enter: function (frame) {
    var depth = this.levels.length - 1;
    this.path[depth] = this.counts[depth]++;
    this.path.length = depth + 1;
    var index = this.next++;
    var from = toHex(frame.getFrom());
    var to = toHex(frame.getTo());
    var pair = from + " " + to;
    if (depth === 0) this.firstLevel[pair] = true;
    else if (pair === this.parties[depth - 1]) this.suspect = true;
    this.parties[depth] = pair;
    this.parties.length = depth + 1;
    var kept = [];
    var type = frame.getType();
    if (type === "CALL" || type === "CREATE" || type === "CREATE2" || type === "SELFDESTRUCT") {
      var value = frame.getValue();
      if (value !== undefined && value !== null && value.toString(16) !== "0")
        kept.push([index, this.path.join("."), type, from, to, "0x" + value.toString(16)]);
    }
    this.levels.push(kept);
    this.counts.push(0);
  },
  exit: function (result) {
    var kept = this.levels.pop();
    this.counts.pop();
    if (result.getError()) return;
    var parent = this.levels[this.levels.length - 1];
    for (var i = 0; i < kept.length; i++) parent.push(kept[i]);
  },
  result: function (ctx) {
    var suspect = this.suspect || this.firstLevel[toHex(ctx.from) + " " + toHex(ctx.to)] === true;
    return { from: toHex(ctx.from), frames: ctx.error ? [] : this.levels[0], suspect: suspect };
  }
}`;
