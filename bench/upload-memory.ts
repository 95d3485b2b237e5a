// Resident memory of the service while one large file is uploaded: the file is generated on the fly
// by the client (never whole in memory) and sent to POST /api/upload of a service listening on
// 127.0.0.1 in this process (the embedded engine in its worker thread, in memory); RSS and heap are
// sampled every 25 ms. Bounded: each upload has a deadline and the process ends by itself.
//   node --import tsx bench/upload-memory.ts [--mb 200] [--over-mb 210]
// --over-mb: a second request past strapi::body's 200 MiB (formidable.maxFileSize): 413 FileTooBig
// while the bytes are still arriving, with how much the service read before it answered.
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createServer } from '../src/app.js';
import { startEngineThread } from '../src/database/engine-thread.js';
import { createApiToken } from '../src/plugins/users-permissions/index.js';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '200' }, 'over-mb': { type: 'string' } } });
const DEADLINE_MS = 180_000;
const hardStop = setTimeout(() => {
  console.error(`upload-memory: still running after ${DEADLINE_MS / 1000} s, stopping`);
  process.exit(2);
}, DEADLINE_MS + 30_000);
hardStop.unref();

const workDirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith('content-service-upload-')).length;
const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function sampler() {
  let peakRss = 0;
  let peakHeap = 0;
  const timer = setInterval(() => {
    const { rss, heapUsed } = process.memoryUsage();
    peakRss = Math.max(peakRss, rss);
    peakHeap = Math.max(peakHeap, heapUsed);
  }, 25);
  return {
    stop: () => {
      clearInterval(timer);
      return { peakRss, peakHeap };
    },
  };
}

/** Sends `size` bytes as one file part, 64 KiB at a time, honouring backpressure. */
function uploadGenerated(url: string, token: string, size: number) {
  const boundary = 'upload-memory-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="large.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0x5a);
  return new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
    let sent = 0;
    const req = request(
      `${url}/api/upload`,
      {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': head.length + size + tail.length,
        },
        timeout: DEADLINE_MS,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (text: string) => (body += text));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body, sent });
        });
      },
    );
    req.on('error', (err) => (sent < size ? resolve({ status: 0, body: String(err), sent }) : reject(err)));
    req.on('timeout', () => req.destroy(new Error('deadline')));
    req.write(head);
    const pump = () => {
      while (sent < size) {
        const part = size - sent >= chunk.length ? chunk : chunk.subarray(0, size - sent);
        sent += part.length;
        if (!req.write(part)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end(tail);
    };
    pump();
  });
}

const appDir = mkdtempSync(join(tmpdir(), 'cs-upload-memory-'));
const uploads = join(appDir, 'public', 'uploads');
mkdirSync(join(appDir, 'schemas', 'api'), { recursive: true });
mkdirSync(join(appDir, 'config'), { recursive: true });
writeFileSync(join(appDir, 'config', 'permissions.json'), '{}');
writeFileSync(
  join(appDir, 'config', 'plugins.json'),
  JSON.stringify({ i18n: { enabled: false }, upload: { config: { providerOptions: { directory: uploads } } } }),
);

const engine = await startEngineThread({ host: '127.0.0.1' });
const service = await createServer({
  appDir,
  databaseUri: new URL(`${engine.socketUri.replace(/\/?$/, '/')}upload-memory`).toString(),
});
try {
  const { url } = await service.start({ port: 0, host: '127.0.0.1' });
  const { accessKey } = await createApiToken(service.context, { name: 'bench', type: 'full-access' });
  global.gc?.();
  const idle = process.memoryUsage();
  console.log(`idle: rss ${mib(idle.rss)} MiB, heap ${mib(idle.heapUsed)} MiB`);

  const size = Number(values.mb) * 1_000_000;
  let sampling = sampler();
  let t0 = performance.now();
  const ok = await uploadGenerated(url, accessKey, size);
  let peak = sampling.stop();
  const stored = readdirSync(uploads).map((name) => statSync(join(uploads, name)).size);
  console.log(
    `${values.mb} MB upload: ${ok.status} in ${Math.round(performance.now() - t0)} ms; ` +
      `peak rss ${mib(peak.peakRss)} MiB (+${mib(peak.peakRss - idle.rss)}), peak heap ${mib(peak.peakHeap)} MiB; ` +
      `stored ${stored.join(', ')} bytes`,
  );
  if (ok.status !== 200) console.log(ok.body.slice(0, 300));

  if (values['over-mb']) {
    const over = Number(values['over-mb']) * 1_000_000;
    sampling = sampler();
    t0 = performance.now();
    const refused = await uploadGenerated(url, accessKey, over);
    peak = sampling.stop();
    console.log(
      `${values['over-mb']} MB upload: ${refused.status} ${refused.body.slice(0, 120)} in ${Math.round(performance.now() - t0)} ms; ` +
        `peak rss ${mib(peak.peakRss)} MiB; files stored ${readdirSync(uploads).length}, temporary directories left ${workDirs()}`,
    );
  }
} finally {
  await service.stop();
  await engine.stop();
  rmSync(appDir, { recursive: true, force: true });
}
