/** Block endpoints: getnowblock, getblockbynum, getblockbyid, getblock, getblockbylatestnum, getblockbylimitnext. */
import { parseHash } from "../hex.ts";
import type { Ledger } from "../ledger.ts";
import type { StoredBlock } from "../ledger/stored-block.ts";
import { printBlock } from "../print-chain-json.ts";
import { parseInt64 } from "../transaction-json.ts";
import { fromJavaError } from "./java-error.ts";
import type { WalletRequest } from "./wallet-request.ts";

/** Most blocks getblockbylatestnum / getblockbylimitnext return (`BLOCK_LIMIT_NUM`). */
const BLOCK_LIMIT_NUM = 100;

function blockOrEmpty(block: StoredBlock | undefined, visible: boolean, detail = true): unknown {
  return block ? printBlock(block, visible, detail) : {};
}

// Util.printBlockList: `{"block":[…]}`, an empty array when no block matched.
function blockList(blocks: StoredBlock[], visible: boolean): unknown {
  return { block: blocks.map((block) => printBlock(block, visible)) };
}

/** `getnowblock`: the view's head. */
export function getNowBlock(ledger: Ledger, request: WalletRequest): unknown {
  return printBlock(ledger.view(request.solidity).head, request.visible);
}

/** `getblockbynum`. */
export function getBlockByNum(ledger: Ledger, request: WalletRequest): unknown {
  try {
    return blockOrEmpty(ledger.view(request.solidity).blockByNumber(parseInt64(request.params.num, "num")), request.visible);
  } catch (error) {
    return fromJavaError(error, request);
  }
}

/** `getblockbyid`. */
export function getBlockById(ledger: Ledger, request: WalletRequest): unknown {
  const id = parseHash(request.params.value);
  return blockOrEmpty(id ? ledger.view(request.solidity).blockById(id) : undefined, request.visible);
}

/** `getblock`: by number or blockID (`id_or_num`), the head when absent; transactions only with `detail`. */
export function getBlock(ledger: Ledger, request: WalletRequest): unknown {
  const view = ledger.view(request.solidity);
  const idOrNum = request.params.id_or_num;
  const detail = request.params.detail === true || request.params.detail === "true";
  if (idOrNum === undefined || idOrNum === null || idOrNum === "") return printBlock(view.head, request.visible, detail);
  const text = String(idOrNum);
  if (/^\d{1,15}$/.test(text)) return blockOrEmpty(view.blockByNumber(Number(text)), request.visible, detail);
  const id = parseHash(text);
  if (!id) return { Error: "id must be legal block hash." };
  return blockOrEmpty(view.blockById(id), request.visible, detail);
}

/** `getblockbylatestnum`: the newest `num` blocks, oldest first. */
export function getBlockByLatestNum(ledger: Ledger, request: WalletRequest): unknown {
  try {
    const count = parseInt64(request.params.num, "num");
    if (count <= 0 || count >= BLOCK_LIMIT_NUM) return {};
    const view = ledger.view(request.solidity);
    const head = view.head.raw.number;
    const blocks: StoredBlock[] = [];
    for (let number = Math.max(0, head - count + 1); number <= head; number += 1) blocks.push(view.blockByNumber(number) as StoredBlock);
    return blockList(blocks, request.visible);
  } catch (error) {
    return fromJavaError(error, request);
  }
}

/** `getblockbylimitnext`: the blocks numbered from `startNum` to before `endNum`. */
export function getBlockByLimitNext(ledger: Ledger, request: WalletRequest): unknown {
  try {
    const start = parseInt64(request.params.startNum, "startNum");
    const end = parseInt64(request.params.endNum, "endNum");
    if (end <= 0 || end <= start || end - start > BLOCK_LIMIT_NUM) return {};
    // java-tron's BlockStore.getLimitNumber: the blocks that exist in [start, end), possibly none.
    const view = ledger.view(request.solidity);
    const blocks: StoredBlock[] = [];
    for (let number = Math.max(start, 0); start >= 0 && number < end; number += 1) {
      const block = view.blockByNumber(number);
      if (block) blocks.push(block);
    }
    return blockList(blocks, request.visible);
  } catch (error) {
    return fromJavaError(error, request);
  }
}
