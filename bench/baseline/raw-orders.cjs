'use strict';
// The floor of serving the orders over HTTP in Node (issue 27: "served read ≥ 0.6× raw node:http"): node:http and
// better-sqlite3 with nothing else — no framework, no validation, no schema, JSON.stringify of the row. The same
// database the hand-written server's seed makes (../shared/bench/hand-written-seed.js), the same three operations:
//   PORT=3005 DB_PATH=h.db node bench/baseline/raw-orders.cjs      (NODE_PATH: a node_modules with better-sqlite3)
// bench/ab-serve.ts runs it beside the others with AB_RAW=1. It answers what a correct request asks and 404 for
// anything else; it is not a server anyone should run.
const http = require('node:http');
const crypto = require('node:crypto');
const Database = require('better-sqlite3');

const db = new Database(process.env.DB_PATH);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
const insert = db.prepare('INSERT INTO orders (id, status, amount, currency, created_at) VALUES (?, ?, ?, ?, ?)');
const get = db.prepare('SELECT id, status, amount, currency, created_at FROM orders WHERE id = ?');
const list = db.prepare('SELECT id, status, amount, currency, created_at FROM orders ORDER BY rowid DESC LIMIT ?');

function send(res, status, text) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

http
  .createServer((req, res) => {
    if (req.method === 'GET' && req.url.startsWith('/orders/')) {
      const row = get.get(req.url.slice(8));
      return row ? send(res, 200, JSON.stringify(row)) : send(res, 404, '{}');
    }
    if (req.method === 'GET' && (req.url === '/orders' || req.url.startsWith('/orders?'))) {
      const limit = Number(new URLSearchParams(req.url.slice(8)).get('limit') ?? 20);
      return send(res, 200, JSON.stringify({ items: list.all(limit) }));
    }
    if (req.method === 'POST' && req.url === '/orders') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const { status, amount, currency } = JSON.parse(body);
        const o = { id: crypto.randomUUID(), status, amount, currency, created_at: new Date().toISOString() };
        insert.run(o.id, o.status, o.amount, o.currency, o.created_at);
        send(res, 201, JSON.stringify(o));
      });
      return;
    }
    send(res, 404, '{}');
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
