// A project's code that starts a call without awaiting it (an email after a sign-up while the mail
// server is down): Node ends the process on the rejection, and Strapi with it. content-service start
// logs it as an error and goes on serving.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { NOTE_HELLO_API, writeTempProject } from '../helpers/temp-app.js';

const BIN = fileURLToPath(new URL('../../bin/content-service.mjs', import.meta.url));

function projectLeavingRejections(): Promise<string> {
  return writeTempProject({
    ...NOTE_HELLO_API,
    'src/index.js': `module.exports = {
  bootstrap() { Promise.reject(new Error('bootstrap job failed')); },
};
`,
    'src/api/note/routes/hello.js':
      "module.exports = { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello', config: { auth: false } }] };",
    'src/api/note/controllers/note.js': `module.exports = {
  async hello(ctx) {
    Promise.reject(new Error('mail server down'));
    ctx.body = { sent: true };
  },
};
`,
  });
}

describe('content-service start and a rejection nothing awaits', function () {
  this.timeout(60_000);

  it('logs it as an error and goes on serving', async () => {
    const appDir = await projectLeavingRejections();
    const child = spawn(
      process.execPath,
      [BIN, 'start', '--app', appDir, '--memory', '--port', '0', '--host', '127.0.0.1'],
      {
        env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout?.on('data', () => {
          const found = /Content Service listening on (http:\/\/[\d.:]+)/.exec(out)?.[1];
          if (found) resolve(found);
        });
        child.on('exit', (code) => reject(new Error(`the service exited with ${code}: ${out}`)));
      });
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${url}/api/hello`);
        expect(res.status).to.equal(200);
        expect(await res.json()).to.deep.equal({ sent: true });
      }
      // the lines are written as the rejections happen: wait for the third (a loaded machine may be slow to pipe it)
      const rejectionLines = () =>
        out.split('\n').filter((line) => line.includes('a promise rejected that nothing awaited'));
      for (const started = Date.now(); rejectionLines().length < 3 && Date.now() - started < 10_000;)
        await new Promise((resolve) => setTimeout(resolve, 25));
      const rejections = rejectionLines().map(
        (line) => JSON.parse(line) as { level: number; err: { message: string } },
      );
      expect(rejections.map((line) => [line.level, line.err.message])).to.deep.equal([
        [50, 'bootstrap job failed'],
        [50, 'mail server down'],
        [50, 'mail server down'],
      ]);
      expect(child.exitCode).to.equal(null);
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
  });
});
