// Keep-alive client on the same 4 connections throughout: warm-up, instrumentation on, settle, zero, count, dump.
import { Buffer } from 'node:buffer';
import http from 'node:http';
import process from 'node:process';
import { execSync } from 'node:child_process';
const [port, path, warm, n, vpid, method = 'GET', body] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const one = () =>
  new Promise((done, fail) => {
    const r = http.request(
      { host: '127.0.0.1', port, path, method, agent, headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {} },
      (res) => {
        if (res.statusCode >= 300) return fail(new Error(`status ${res.statusCode}`));
        res.resume();
        res.on('end', done);
      },
    );
    r.on('error', fail);
    r.end(body);
  });
async function run(count) {
  let left = count;
  await Promise.all(
    [0, 1, 2, 3].map(async () => {
      while (left-- > 0) {
        try {
          await one();
        } catch (err) {
          if (err.code !== 'ECONNRESET') throw err;
          await one();
        }
      }
    }),
  );
}
await run(Number(warm));
execSync(`callgrind_control -i on ${vpid}`);
await run(2000);
execSync(`callgrind_control -z ${vpid}`);
await run(Number(n));
execSync(`callgrind_control -d ${vpid}`);
agent.destroy();
