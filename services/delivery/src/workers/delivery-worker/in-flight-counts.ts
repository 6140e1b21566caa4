/** One more in flight for `key`. */
export function countUp(counts: Map<number, number>, key: number): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** One fewer in flight for `key`; a key with none left is dropped. */
export function countDown(counts: Map<number, number>, key: number): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
