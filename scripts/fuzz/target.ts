/**
 * The service under fuzz in a child process (service.ts), and what the fuzzer needs of it: its
 * address, its callers' credentials, its database, and the errors it logged. A service that stops
 * answering is killed and started again (a stall is a finding; the run goes on).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { MongoClient, type Db } from 'mongodb';
import type { FuzzRequest } from './rest.js';

export interface LogEntry {
  msg?: string;
  err?: { type?: string; message?: string; stack?: string };
}

export interface Answer {
  /** HTTP status; -1 when the connection failed or timed out, -2 when the client could not send it */
  status: number;
  ms: number;
  text: string;
}

export class Target {
  /** every error line the service logged, across restarts */
  readonly logged: LogEntry[] = [];
  /** bumped by each restart: answers that failed across one are not the request's fault */
  generation = 0;
  callers: [string, string | undefined][] = [];
  private child: ChildProcess | undefined;
  private base: URL | undefined;
  private mongo: MongoClient | undefined;
  private restarting: Promise<void> | undefined;

  constructor(private readonly timeoutMs: number) {}

  get db(): Db {
    if (!this.mongo) throw new Error('the target is not started');
    return this.mongo.db();
  }

  async start(): Promise<void> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./service.ts', import.meta.url))],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child = child;
    createInterface({ input: child.stderr! }).on('line', (line) => {
      try {
        this.logged.push(JSON.parse(line) as LogEntry);
      } catch {
        process.stderr.write(`service: ${line}\n`);
      }
    });
    const ready = await new Promise<{ url: string; databaseUri: string; accessKey: string }>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
      child.once('exit', (code) => reject(new Error(`the service exited (${code}) before it was ready`)));
    });
    this.base = new URL(ready.url);
    this.mongo = await MongoClient.connect(ready.databaseUri);
    const register = await this.request({
      method: 'POST',
      path: '/api/auth/local/register',
      body: JSON.stringify({ username: 'fuzzer', email: 'fuzzer@example.com', password: 'Password123!' }),
      contentType: 'application/json',
      kind: 'setup',
    });
    const jwt = (JSON.parse(register.text) as { jwt?: string }).jwt;
    this.callers = [
      ['public', undefined],
      ['full-access', `Bearer ${ready.accessKey}`],
      ['user', jwt ? `Bearer ${jwt}` : undefined],
    ];
  }

  /** Kills the service and starts a fresh one (once, however many requests saw it stall). */
  restart(): Promise<void> {
    this.restarting ??= (async () => {
      this.generation++;
      await this.stop();
      await this.start();
    })().finally(() => {
      this.restarting = undefined;
    });
    return this.restarting;
  }

  private request(req: FuzzRequest): Promise<Answer> {
    return this.sendNow(req, undefined);
  }

  async stop(): Promise<void> {
    await this.mongo?.close().catch(() => {});
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
  }

  /** Sends a request (once a restart under way is over); `callerIndex` picks the credentials. */
  async send(req: FuzzRequest, callerIndex?: number): Promise<Answer> {
    await this.restarting;
    return this.sendNow(req, callerIndex === undefined ? undefined : this.callers[callerIndex]?.[1]);
  }

  private sendNow(req: FuzzRequest, authorization: string | undefined): Promise<Answer> {
    const base = this.base;
    if (!base) throw new Error('the target is not started');
    const started = performance.now();
    return new Promise((resolve) => {
      const headers: Record<string, string> = {};
      if (authorization) headers.authorization = authorization;
      if (req.contentType) headers['content-type'] = req.contentType;
      if (req.contentEncoding) headers['content-encoding'] = req.contentEncoding;
      if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
      const finish = (status: number, text: string) => resolve({ status, ms: performance.now() - started, text });
      let outgoing;
      try {
        outgoing = httpRequest(
          {
            host: base.hostname,
            port: base.port,
            method: req.method,
            path: req.path,
            headers,
            timeout: this.timeoutMs,
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => finish(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
            res.on('error', () => finish(-1, 'response error'));
          },
        );
      } catch (err) {
        finish(-2, `not sent: ${String(err)}`); // the client refused the path (never reaches the service)
        return;
      }
      outgoing.on('timeout', () => {
        outgoing.destroy();
        finish(-1, 'timeout');
      });
      outgoing.on('error', (err) => finish(-1, `socket: ${err.message}`));
      outgoing.end(req.body);
    });
  }
}
