// `strapi.config.get('server.port')` (and host, url) is where the server listens, as in Strapi, whose
// server listens on its config's values: a project's controller calling its own server at
// `http://localhost:${strapi.config.get('server.port')}` reaches it whatever --port or PORT said.
// With no host set, `server.host` is Strapi's default (the machine's name); the service listens on
// every address.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeTempProject } from '../helpers/temp-app.js';

const BIN = fileURLToPath(new URL('../../bin/content-service.mjs', import.meta.url));

/** A project whose `note.hello` action answers what strapi.config says and calls its own server there. */
function selfCallingProject(serverConfig: string): Promise<string> {
  return writeTempProject({
    ...NOTE_HELLO_API,
    'config/permissions.json': JSON.stringify({ public: ['api::note.note.hello', 'api::note.note.find'] }),
    'config/server.js': serverConfig,
    'src/api/note/routes/hello.js':
      "module.exports = { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello', config: { auth: false } }] };",
    'src/api/note/controllers/note.js': `module.exports = {
  async hello(ctx) {
    const at = (path) => strapi.config.get(path);
    const own = await fetch(\`http://\${at('server.host')}:\${at('server.port')}/api/notes\`).catch((err) => ({ status: String(err) }));
    ctx.body = { host: at('server.host'), port: at('server.port'), top: [strapi.config.port, strapi.config.host],
      url: at('server.url'), admin: [at('admin.url'), at('admin.path')], own: own.status };
  },
};
`,
  });
}

async function freePort(): Promise<number> {
  const holder = createNetServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const { port } = holder.address() as { port: number };
  await new Promise<void>((resolve) => holder.close(() => resolve()));
  return port;
}

describe('the server address in strapi.config', function () {
  this.timeout(60_000);

  it('content-service start --port N --host H: strapi.config answers N and H, so the app reaches its own server', async () => {
    const appDir = await selfCallingProject(
      "module.exports = ({ env }) => ({ host: env('HOST', '0.0.0.0'), port: env.int('PORT', 1337), url: 'https://cms.example.com/' });",
    );
    const { PORT: _port, HOST: _host, ...env } = process.env;
    // a port found free may be taken by another process before the service binds it: try another
    let started: { child: ChildProcess; port: number } | undefined;
    for (let attempt = 0; !started; attempt++) {
      const port = await freePort();
      const child = spawn(
        process.execPath,
        [BIN, 'start', '--app', appDir, '--memory', '--port', String(port), '--host', '127.0.0.1'],
        { env: { ...env, NODE_ENV: 'test', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const listening = await new Promise<boolean>((resolve, reject) => {
        let out = '';
        let err = '';
        child.stdout?.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('Content Service listening on')) resolve(true);
        });
        child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
        child.on('exit', (code) => {
          if (attempt < 4 && err.includes(`port ${port} is in use`)) resolve(false);
          else reject(new Error(`the service exited with ${code}: ${out}${err}`));
        });
      });
      if (listening) started = { child, port };
    }
    const { child, port } = started;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/hello`);
      expect(await res.json()).to.deep.equal({
        host: '127.0.0.1',
        port,
        top: [port, '127.0.0.1'],
        url: 'https://cms.example.com',
        admin: ['https://cms.example.com/admin', '/admin'],
        own: 200,
      });
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
  });

  it('PORT and HOST win over config/server as the service listens; a port 0 reads as the port bound', async () => {
    const appDir = await selfCallingProject("module.exports = { host: '0.0.0.0', port: 1337, url: '/cms/' };");
    const saved = { PORT: process.env.PORT, HOST: process.env.HOST };
    Object.assign(process.env, { PORT: '0', HOST: '127.0.0.1' });
    const service = await createTestService({ appDir }).finally(() => {
      for (const [name, value] of Object.entries(saved))
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    });
    try {
      const before = await request(service.app).get('/api/hello').expect(200);
      expect(before.body).to.include({ host: '127.0.0.1', port: 0, url: '/cms' });
      expect(before.body.admin).to.deep.equal(['/cms/admin', '/cms/admin']);
      const { port } = await service.start();
      const after = await request(service.app).get('/api/hello').expect(200);
      expect(after.body).to.deep.include({ host: '127.0.0.1', port, top: [port, '127.0.0.1'], own: 200 });
    } finally {
      await service.close();
    }
  });

  it("no host set: strapi.config answers Strapi's default (the machine's name), the service listens on every address", async () => {
    const appDir = await selfCallingProject('module.exports = { port: 0 };');
    const saved = process.env.HOST;
    delete process.env.HOST;
    const service = await createTestService({ appDir }).finally(() => {
      if (saved !== undefined) process.env.HOST = saved;
    });
    try {
      const expected = hostname() || 'localhost';
      const before = await request(service.app).get('/api/hello').expect(200);
      expect(before.body.host).to.equal(expected);
      expect(before.body.top[1]).to.equal(expected);
      const { host, port } = await service.start();
      expect(host).to.equal('0.0.0.0');
      expect((await fetch(`http://127.0.0.1:${port}/api/notes`)).status).to.equal(200);
      const after = await request(service.app).get('/api/hello').expect(200);
      expect(after.body).to.include({ host: expected, port });
    } finally {
      await service.close();
    }
  });

  it('an invalid server.url stops start-up naming the file', async () => {
    const appDir = await selfCallingProject("module.exports = { url: 'http://exa mple.com' };");
    const failed = await createTestService({ appDir }).catch((err: Error) => err);
    if (!(failed instanceof Error)) await failed.close();
    expect((failed as Error).message).to.match(/config\/server\.js \(key "url"\): must be a valid URL or a path/);
  });
});
