// Sends one request N times over C keep-alive connections (C loops in parallel, each waiting for
// its answer), then exits; every answer must be a 200. Run by bench/thread-cpu.ts in a child
// process: node bench/request-loop.mjs N C, with REQUEST_SPEC='{"url","method","headers","body"}'.
import { Agent, request } from 'node:http';

const [total, connections] = process.argv.slice(2).map(Number);
const spec = JSON.parse(process.env.REQUEST_SPEC ?? '{}');
const agent = new Agent({ keepAlive: true, maxSockets: connections });

function once() {
  return new Promise((resolve, reject) => {
    const req = request(spec.url, { method: spec.method, headers: spec.headers, agent }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(spec.body);
  });
}

let sent = 0;
async function loop() {
  while (sent < total) {
    sent++;
    await once();
  }
}
try {
  await Promise.all(Array.from({ length: connections }, loop));
  agent.destroy();
} catch (err) {
  console.error(`request-loop: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
