/**
 * The HTTP baseline: bare node:http + postgres.js answering status-by-hash with the same indexed
 * query the app runs (the three hash keys, newest first, one row), prepared, the whole row as JSON.
 * No framework, no validation, no rate limit: the floor of what one process can do on this machine.
 */
import { createServer, type Server } from 'node:http';
import type postgres from 'postgres';
import { hashKey } from '../server/transactions/keys';

export function createBareServer(sql: postgres.Sql): Server {
  return createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const key = hashKey(url.searchParams.get('hash'));
      if (url.pathname !== '/status' || !key) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":"not found"}');
        return;
      }
      const [row] = await sql`select * from transactions
        where hash_key = ${key} or inbound_hash_key = ${key} or outbound_hash_key = ${key}
        order by created_at desc limit 1`;
      res.writeHead(row ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: row ?? null }));
    } catch {
      res.writeHead(500);
      res.end();
    }
  });
}
