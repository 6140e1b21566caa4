/**
 * The internal endpoint every gateway figure is measured against: a node:http server answering
 * a small JSON body, or a large streamed body at `/big`. Run as its own process.
 */
import http from "node:http";

const SMALL = JSON.stringify({ status: "ok", chain: "regtest", blocks: 101, headers: 101, verificationProgress: 1 });
const CHUNK = Buffer.alloc(64 * 1024, "x");
const BIG_BYTES = Number(process.env.BIG_BYTES ?? 20 * 1024 * 1024);

const server = http.createServer((req, res) => {
  if (!req.url?.endsWith("/big")) {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(SMALL) });
    res.end(SMALL);
    return;
  }
  res.writeHead(200, { "content-type": "application/octet-stream" });
  let sent = 0;
  const write = () => {
    while (sent < BIG_BYTES) {
      sent += CHUNK.length;
      if (!res.write(CHUNK)) return void res.once("drain", write);
    }
    res.end();
  };
  write();
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), "127.0.0.1");
