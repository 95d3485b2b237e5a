import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { run } from '../../src/cli.js';
import { startEngine } from '../../src/engine/index.js';
import { javascriptProject } from '../helpers/strapi-projects.js';
import { collectionTypeSchema, writeTempApp, writeTempProject } from '../helpers/temp-app.js';

const BIN = fileURLToPath(new URL('../../bin/content-service.mjs', import.meta.url));

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with `args` (environment: the test's, NODE_ENV=test, then `env`); its exit code and output. */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number | null) : 0, stdout, stderr }),
    );
  });
}

/**
 * Runs the CLI in this process (no process of its own to start, so the suite stays fast), with
 * `env` over the environment; what it printed and the exit code it asks for.
 */
async function cliHere(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  const out: string[] = [];
  const err: string[] = [];
  const saved = { log: console.log, error: console.error };
  const savedEnv = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const cwd = process.cwd(); // start enters the app directory
  console.log = (...parts: unknown[]) => void out.push(`${parts.join(' ')}\n`);
  console.error = (...parts: unknown[]) => void err.push(`${parts.join(' ')}\n`);
  Object.assign(process.env, env);
  try {
    const code = await run(args);
    return { code: code ?? 0, stdout: out.join(''), stderr: err.join('') };
  } finally {
    Object.assign(console, saved);
    process.chdir(cwd);
    for (const [name, value] of Object.entries(savedEnv))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  }
}

/** `content-service start` in this process, in memory, on 127.0.0.1 unless told otherwise, on a small app. */
async function start(extra: string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  const appDir = await writeTempApp({});
  return cliHere(['start', '--app', appDir, '--memory', '--port', '0', '--host', '127.0.0.1', ...extra], env);
}

describe('CLI: content-service start that cannot start', function () {
  this.timeout(60_000);

  it('prints one line naming the file, the cause and the fix, and exits 1', async () => {
    const appDir = await writeTempProject({
      ...javascriptProject(),
      'config/plugins.js': "const s3 = require('@strapi/provider-upload-aws-s3');\nmodule.exports = {};\n",
    });
    // a process of its own: the exit code is the one the shell sees
    const missing = await cli(['start', '--app', appDir, '--memory', '--port', '0', '--host', '127.0.0.1']);
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.equal(
      'content-service start: config/plugins.js: requires the package "@strapi/provider-upload-aws-s3", which is not installed: run "npm install @strapi/provider-upload-aws-s3" in the app directory, or remove what uses it\n',
    );
  });

  it('a schema error stops the engine the entry script started before loading the service: the data directory is left free', async () => {
    const appDir = await writeTempApp({
      api: {
        post: collectionTypeSchema('post', 'posts', {
          author: { type: 'relation', relation: 'manyToOne', target: 'api::nobody.nobody' },
        }),
      },
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'cli-early-'));
    try {
      const failed = await cli(['start', '--app', appDir, '--data', dataDir, '--port', '0', '--host', '127.0.0.1']);
      expect(failed.code).to.equal(1);
      expect(failed.stderr).to.match(
        /^content-service start: .*post\.json \(attribute "author"\): unknown relation target/,
      );
      // the engine was running (it wrote its files) and was stopped (a stop removes these two)
      expect(readdirSync(dataDir).some((name) => name.startsWith('journal.'))).to.equal(true);
      expect(readdirSync(dataDir)).not.to.include('LOCK');
      expect(readdirSync(dataDir)).not.to.include('running-engine.uri');
      const again = await cli(['start', '--app', appDir, '--data', dataDir, '--port', '0', '--host', '127.0.0.1']);
      expect(again.stderr, 'the next start finds the directory free').to.match(/unknown relation target/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe('on a port another process holds', () => {
    let holder: Server;
    let port: number;
    before(async () => {
      holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      port = (holder.address() as { port: number }).port;
    });
    after(() => new Promise<void>((resolve) => holder.close(() => resolve())));

    it('exits 1 naming the port', async () => {
      const busy = await start(['--port', String(port)]);
      expect(busy.code).to.equal(1);
      expect(busy.stderr).to.equal(
        `content-service start: cannot listen on 127.0.0.1:${port}: port ${port} is in use: choose another with --port, PORT or server.port\n`,
      );
    });
  });

  it("runs in the app directory, as Strapi does: the app's code reads its own relative paths", async () => {
    const appDir = await writeTempProject({
      ...javascriptProject(),
      'data/greeting.txt': 'hello',
      'src/index.js':
        "const { readFileSync } = require('node:fs');\nmodule.exports = { bootstrap() { readFileSync('data/greeting.txt', 'utf8'); } };\n",
    });
    // the host is refused after bootstrap: reaching it proves bootstrap found its file
    const started = await cliHere(['start', '--app', appDir, '--memory', '--port', '0', '--host', '203.0.113.7']);
    expect(started.stderr).to.match(/^content-service start: cannot listen on 203\.0\.113\.7:0/);
    const missing = await cliHere(['start', '--app', `${appDir}/nowhere`, '--memory']);
    expect([missing.code, missing.stderr]).to.deep.equal([
      2,
      `content-service start: the app directory ${appDir}/nowhere does not exist or cannot be entered (--app or APP_DIR) (see content-service start --help)\n`,
    ]);
  });

  it('on a host that is not an address of this machine, exits 1 naming the host', async () => {
    // 203.0.113.0/24 is reserved for documentation: never a local address
    const away = await start(['--host', '203.0.113.7']);
    expect(away.code).to.equal(1);
    expect(away.stderr).to.match(
      /^content-service start: cannot listen on 203\.0\.113\.7:0: host 203\.0\.113\.7 is not an address of this machine: .*--host/,
    );
    expect(away.stderr.trim().split('\n')).to.have.length(1);
  });

  it('in production without JWT_SECRET and API_TOKEN_SALT, exits 1 naming both', async () => {
    const refused = await start([], { NODE_ENV: 'production', JWT_SECRET: '', API_TOKEN_SALT: '' });
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.match(
      /^content-service start: NODE_ENV=production: JWT_SECRET .* and API_TOKEN_SALT .* are not set; set them in the environment or \.env/,
    );
    expect(refused.stderr.trim().split('\n')).to.have.length(1);
  });
});

describe('CLI: content-service start on persisted data', function () {
  this.timeout(60_000);

  it('serves what its data directory holds, through the database the entry script began before the service loaded', async () => {
    const appDir = await writeTempApp({
      api: { post: collectionTypeSchema('post', 'posts', { title: { type: 'string' } }) },
      config: { permissions: { public: ['api::post.post.find'] } },
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'cli-persisted-'));
    try {
      const engine = await startEngine({ dataDir });
      const client = await MongoClient.connect(engine.uri);
      const at = new Date('2026-01-02T03:04:05.000Z');
      await client
        .db('content')
        .collection('posts')
        .insertOne({ _id: 7 as never, title: 'kept', createdAt: at, updatedAt: at });
      await client.close();
      await engine.stop();

      const service = spawn(
        process.execPath,
        [BIN, 'start', '--app', appDir, '--data', dataDir, '--port', '0', '--host', '127.0.0.1'],
        {
          env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      try {
        const url = await new Promise<string>((listening, failed) => {
          let out = '';
          service.stdout.on('data', (d: Buffer) => {
            out += d.toString();
            const found = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
            if (found) listening(found[1]);
          });
          service.on('exit', (code) => failed(new Error(`exited ${code} before listening: ${out}`)));
        });
        const answer = (await (await fetch(`${url}/api/posts`)).json()) as {
          data: { id: number; attributes: { title: string } }[];
        };
        expect(answer.data.map((entry) => [entry.id, entry.attributes.title])).to.deep.equal([[7, 'kept']]);
      } finally {
        const exited = new Promise((done) => service.once('exit', done));
        service.kill('SIGTERM');
        await exited;
      }
      // a clean stop: the data directory is released
      expect(readdirSync(dataDir)).not.to.include('LOCK');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('CLI: help, version, wrong arguments', function () {
  this.timeout(60_000);

  it('--help lists every command; each command has its own --help', async () => {
    const help = await cliHere(['--help']);
    expect(help.code).to.equal(0);
    for (const command of ['start', 'engine', 'token']) expect(help.stdout).to.match(new RegExp(`^  ${command} `, 'm'));
    for (const command of ['start', 'engine', 'token']) {
      const own = await cliHere([command, '--help']);
      expect(own.code, command).to.equal(0);
      expect(own.stdout, command).to.include(`content-service ${command}`);
    }
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(await cliHere(['--version'])).to.deep.include({ code: 0, stdout: `${version}\n` });
  });

  it('wrong arguments exit 2 with one line pointing at --help', async () => {
    expect(await cliHere(['serve'])).to.deep.include({
      code: 2,
      stderr: 'content-service: unknown command "serve" (see content-service --help)\n',
    });
    expect(await cliHere(['start', '--prot', '1'])).to.deep.include({
      code: 2,
      stderr: "content-service start: Unknown option '--prot' (see content-service start --help)\n",
    });
  });
});
