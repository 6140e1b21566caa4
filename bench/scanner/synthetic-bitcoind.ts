/**
 * A bitcoind stand-in for `pnpm bench mempool`, run as its own process so its CPU is never counted
 * as the watcher's: JSON-RPC 1.0 over node:http with basic auth, a mempool of MEMPOOL_SIZE
 * transactions and, once `bench_churn` turns it on, CHURN_PER_SECOND new ones a second while as
 * many of the oldest leave (mined). Answers are shaped like Bitcoin Core 27's: verbose
 * `getrawtransaction` (1–3 P2WPKH inputs with witnesses, 2 outputs, the raw hex), `getmempoolentry`,
 * `gettxout`, and blocks for the conflict search; amounts as decimal numbers with 8 digits.
 * Transaction `seq` is a pure function of its number, so nothing but the txids is held.
 *
 * Watched payments: one in WATCHED_EVERY_INITIAL of the starting mempool and one in
 * WATCHED_EVERY_NEW of the churn pay one of the first WATCHED_COUNT `bitcoinAddress` numbers;
 * `bench_watched` lists them with the time each entered the mempool (timeOrigin + now, in ms).
 */
import http from "node:http";
import { createHash } from "node:crypto";
import { bitcoinAddress } from "./synthetic-blocks.ts";

const env = (name: string) => Number(process.env[name]);
const MEMPOOL_SIZE = env("MEMPOOL_SIZE");
const CHURN_PER_SECOND = env("CHURN_PER_SECOND");
const WATCHED_COUNT = env("WATCHED_COUNT");
const WATCHED_EVERY_INITIAL = env("WATCHED_EVERY_INITIAL");
const WATCHED_EVERY_NEW = env("WATCHED_EVERY_NEW");
const AUTHORIZATION = `Basic ${Buffer.from(process.env.RPC_AUTH!).toString("base64")}`;
const TIP = 850_000;
/** Addresses numbered from here are nobody's (the bench watches numbers below WATCHED_COUNT). */
const STRANGERS = 100_000_000;

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const clock = () => performance.timeOrigin + performance.now();
const btc = (sats: number) => `${Math.floor(sats / 1e8)}.${String(sats % 1e8).padStart(8, "0")}`;

/** txid → its number, oldest first (Map order). */
const mempool = new Map<string, number>();
const mined = new Set<string>();
const watched: Array<{ txid: string; n: number; address: string; addedAtMs: number | null }> = [];
let nextSeq = 0;
let rawMempool: string | null = null;

/** Which watched address a transaction pays, if any: spread over the whole list (7919 is prime). */
function watchedPayee(seq: number): string | undefined {
  const initial = seq < MEMPOOL_SIZE;
  const offset = initial ? seq : seq - MEMPOOL_SIZE;
  const every = initial ? WATCHED_EVERY_INITIAL : WATCHED_EVERY_NEW;
  if (offset % every !== 0) return undefined;
  const slot = (initial ? 0 : Math.ceil(MEMPOOL_SIZE / WATCHED_EVERY_INITIAL)) + offset / every;
  return bitcoinAddress((slot * 7919) % WATCHED_COUNT);
}

function shape(seq: number) {
  const inputs = 1 + (seq % 3);
  const vsize = 73 + 68 * inputs;
  const weight = vsize * 4 - 3;
  const size = vsize + 108 * inputs;
  const fee = vsize * (1 + (seq % 40));
  return { inputs, vsize, weight, size, fee, replaceable: seq % 4 === 0 };
}

const program = (address: string) => sha(address).slice(0, 40);

function output(n: number, address: string, sats: number): string {
  const hash = program(address);
  return (
    `{"value":${btc(sats)},"n":${n},"scriptPubKey":{"asm":"0 ${hash}","desc":"addr(${address})#${sha(address).slice(40, 48)}",` +
    `"hex":"0014${hash}","address":"${address}","type":"witness_v0_keyhash"}}`
  );
}

/** `getrawtransaction <txid> true` of transaction `seq`, as Bitcoin Core writes it (mempool: no block fields). */
function rawTransaction(seq: number): string {
  const txid = sha(`tx${seq}`);
  const { inputs, vsize, weight, size, replaceable } = shape(seq);
  const vin = Array.from({ length: inputs }, (_, i) => {
    const signature = `30440220${sha(`r${seq}:${i}`)}0220${sha(`s${seq}:${i}`)}01`;
    return (
      `{"txid":"${sha(`prev${seq}:${i}`)}","vout":${i % 2},"scriptSig":{"asm":"","hex":""},` +
      `"txinwitness":["${signature}","02${sha(`pub${seq}:${i}`)}"],"sequence":${replaceable ? 4294967293 : 4294967295}}`
    );
  });
  const payee = watchedPayee(seq) ?? bitcoinAddress(STRANGERS + 2 * seq);
  const vout = [
    output(0, payee, 10_000 + ((seq * 7919) % 5_000_000)),
    output(1, bitcoinAddress(STRANGERS + 2 * seq + 1), 1_000_000 + ((seq * 104_729) % 90_000_000)),
  ];
  const hex = `02000000000101${sha(`hex${seq}`).repeat(Math.ceil((2 * size) / 64))}`.slice(0, 2 * size);
  return (
    `{"txid":"${txid}","hash":"${sha(`wtx${seq}`)}","version":2,"size":${size},"vsize":${vsize},"weight":${weight},"locktime":0,` +
    `"vin":[${vin.join(",")}],"vout":[${vout.join(",")}],"hex":"${hex}"}`
  );
}

function mempoolEntry(seq: number): string {
  const { vsize, weight, fee, replaceable } = shape(seq);
  const fees = btc(fee);
  return (
    `{"vsize":${vsize},"weight":${weight},"time":${1_700_000_000 + seq},"height":${TIP},"descendantcount":1,"descendantsize":${vsize},` +
    `"ancestorcount":1,"ancestorsize":${vsize},"wtxid":"${sha(`wtx${seq}`)}",` +
    `"fees":{"base":${fees},"modified":${fees},"ancestor":${fees},"descendant":${fees}},` +
    `"depends":[],"spentby":[],"bip125-replaceable":${replaceable},"unbroadcast":false}`
  );
}

function add(): void {
  const seq = nextSeq++;
  const txid = sha(`tx${seq}`);
  mempool.set(txid, seq);
  const payee = watchedPayee(seq);
  if (payee !== undefined) watched.push({ txid, n: 0, address: payee, addedAtMs: seq < MEMPOOL_SIZE ? null : clock() });
  rawMempool = null;
}

/** The oldest leaves, as if mined: its outputs are in the UTXO set from now on. */
function mine(): void {
  const oldest = mempool.keys().next().value;
  if (oldest === undefined) return;
  mempool.delete(oldest);
  mined.add(oldest);
  rawMempool = null;
}

for (let i = 0; i < MEMPOOL_SIZE; i++) add();
let churn: NodeJS.Timeout | undefined;

class RpcError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

function inMempool(txid: unknown, message: string): number {
  const seq = mempool.get(String(txid));
  if (seq === undefined) throw new RpcError(-5, message);
  return seq;
}

/** Block hashes that say their height, so `getblock` can answer any of them. */
const blockHash = (height: number) => height.toString(16).padStart(64, "0");

/** The JSON text of a method's result. */
function answer(method: string, params: unknown[]): string {
  switch (method) {
    case "getrawmempool":
      return (rawMempool ??= JSON.stringify([...mempool.keys()]));
    case "getrawtransaction":
      return rawTransaction(
        inMempool(params[0], "No such mempool transaction. Use -txindex or provide a block hash to enable blockchain transaction queries."),
      );
    case "getmempoolentry":
      return mempoolEntry(inMempool(params[0], "Transaction not in mempool"));
    case "gettxout": {
      // include_mempool false: outputs of mined transactions and of the inputs' (confirmed) parents; none of a mempool one.
      const txid = String(params[0]);
      if (mempool.has(txid)) return "null";
      return `{"bestblock":"${blockHash(TIP)}","confirmations":1,"value":0.00100000,"scriptPubKey":{"asm":"","hex":"","type":"witness_v0_keyhash"},"coinbase":false}`;
    }
    case "getblockcount":
      return String(TIP);
    case "getblockhash":
      return JSON.stringify(blockHash(Number(params[0])));
    case "getblock": {
      const height = Number.parseInt(String(params[0]), 16);
      const coinbase = `{"txid":"${sha(`coinbase${height}`)}","vin":[{"coinbase":"03","sequence":4294967295}],"vout":[]}`;
      return `{"hash":${JSON.stringify(params[0])},"height":${height},"time":1700000000,"tx":[${coinbase}]}`;
    }
    case "bench_churn":
      clearInterval(churn);
      churn = params[0] === true ? setInterval(() => (add(), mine()), 1000 / CHURN_PER_SECOND) : undefined;
      return "true";
    case "bench_watched":
      return JSON.stringify({ watched, mempoolSize: mempool.size, mined: mined.size });
    default:
      throw new RpcError(-32601, "Method not found");
  }
}

http
  .createServer((req, res) => {
    if (req.headers.authorization !== AUTHORIZATION) {
      res.writeHead(401).end();
      return;
    }
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const call = JSON.parse(body) as { id: unknown; method: string; params?: unknown[] };
      const id = JSON.stringify(call.id ?? null);
      let status = 200;
      let text: string;
      try {
        text = `{"result":${answer(call.method, call.params ?? [])},"error":null,"id":${id}}`;
      } catch (error) {
        if (!(error instanceof RpcError)) throw error;
        // Bitcoin Core's JSON-RPC 1.0: 404 for an unknown method, 500 for the other errors.
        status = error.code === -32601 ? 404 : 500;
        text = `{"result":null,"error":${JSON.stringify({ code: error.code, message: error.message })},"id":${id}}`;
      }
      res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
    });
  })
  .listen(Number(process.env.PORT), "127.0.0.1");
