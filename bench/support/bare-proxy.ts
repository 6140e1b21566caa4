/**
 * The floor any Node hop pays on this machine: node:http in, an undici pool out, no auth, no
 * logging. Run as its own process.
 */
import http from "node:http";
import { Pool } from "undici";

const pool = new Pool(process.env.UPSTREAM_URL!, { connections: 64 });

http
  .createServer((req, res) => {
    pool
      .stream({ path: req.url ?? "/", method: req.method as "GET", headers: { accept: "application/json" } }, ({ statusCode, headers }) => {
        res.writeHead(statusCode, headers as Record<string, string>);
        return res;
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
  })
  .listen(Number(process.env.PORT), "127.0.0.1");
