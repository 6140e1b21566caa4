/** Live memory after full collections: for "bytes per item" figures measured before and after. */
import v8 from "node:v8";
import vm from "node:vm";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

/** JS heap plus ArrayBuffer memory (typed-array bitmaps live outside the heap), after two GCs. */
export function heapUsed(): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}
