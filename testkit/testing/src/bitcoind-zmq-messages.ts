/**
 * bitcoind's ZMQ messages (doc/zmq.md) as frames a zeromq Publisher sends, for tests and benches
 * that stand in for a ZMQ-enabled node (Debian's litecoind is built without ZMQ): the topic, the
 * body, and the publisher's LE uint32 message number.
 */

const messageNumber = (number: number) => {
  const frame = Buffer.alloc(4);
  frame.writeUInt32LE(number >>> 0);
  return frame;
};

/** `hashblock`: the new tip's 32-byte hash (display order). */
export function zmqHashBlock(hash: string, number: number): Buffer[] {
  return [Buffer.from("hashblock"), Buffer.from(hash, "hex"), messageNumber(number)];
}

/** `sequence` for a transaction added to the mempool: txid (display order), "A", the LE uint64 mempool sequence. */
export function zmqMempoolAdded(txid: string, mempoolSequence: bigint, number: number): Buffer[] {
  const added = Buffer.alloc(9);
  added.write("A", 0, "latin1");
  added.writeBigUInt64LE(mempoolSequence, 1);
  return [Buffer.from("sequence"), Buffer.concat([Buffer.from(txid, "hex"), added]), messageNumber(number)];
}
