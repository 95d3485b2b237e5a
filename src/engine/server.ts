import { createServer, type Server, type Socket } from 'node:net';
import type { Doc } from './bson/types.js';
import type { ServerState } from './commands/context.js';
import { dispatch } from './commands/registry.js';
import { CursorStore } from './cursors.js';
import { readMessages } from './protocol/connection.js';
import { serializeReply, type Request } from './protocol/wire.js';
import { Catalog, type Change } from './storage/catalog.js';
import { Journal } from './storage/journal.js';

export interface EngineServerOptions {
  host: string;
  port: number;
  dataDir?: string;
  logger: (msg: string) => void;
}

/** The TCP server: one catalog, one cursor store, an optional journal; commands run one at a time. */
export class EngineServer {
  private readonly catalog = new Catalog();
  private readonly cursors = new CursorStore();
  private readonly sockets = new Set<Socket>();
  private readonly pending: Change[] = [];
  private journal: Journal | undefined;
  private server: Server | undefined;
  readonly state: ServerState;

  constructor(private readonly opts: EngineServerOptions) {
    this.state = {
      startedAt: Date.now(),
      host: opts.host,
      port: opts.port,
      connections: { current: 0, totalCreated: 0 },
    };
  }

  async start(): Promise<number> {
    if (this.opts.dataDir) {
      this.journal = Journal.open(this.opts.dataDir, this.catalog, this.opts.logger);
      this.catalog.record = (c) => {
        this.pending.push(c);
      };
    }
    this.cursors.startReaper();
    const server = createServer({ noDelay: true }, (socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.port, this.opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : this.opts.port;
    this.state.port = port;
    return port;
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    this.state.connections.current++;
    this.state.connections.totalCreated++;
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.state.connections.current--;
    });
    readMessages(
      socket,
      (req) => this.handle(socket, req),
      (err) => this.opts.logger(`closing connection: ${err.message}`),
    );
  }

  private handle(socket: Socket, req: Request): void {
    let reply: Doc;
    try {
      reply = dispatch(req.command, { catalog: this.catalog, cursors: this.cursors, server: this.state });
      this.flush();
    } catch (err) {
      this.pending.length = 0;
      this.opts.logger(`journal write failed: ${(err as Error).message}`);
      reply = { ok: 0, errmsg: `journal write failed: ${(err as Error).message}`, code: 1, codeName: 'InternalError' };
    }
    if (req.moreToCome) return;
    let out: Buffer;
    try {
      out = serializeReply(req, reply);
    } catch (err) {
      out = serializeReply(req, {
        ok: 0,
        errmsg: `reply could not be serialized: ${(err as Error).message}`,
        code: 10334,
        codeName: 'BSONObjectTooLarge',
      });
    }
    if (!socket.destroyed) socket.write(out);
  }

  /** Makes this command's changes durable before its reply goes out. */
  private flush(): void {
    if (!this.journal || this.pending.length === 0) return;
    const changes = this.pending.splice(0);
    this.journal.append(changes, this.catalog);
  }

  async stop(): Promise<void> {
    this.cursors.stop();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.journal?.close(this.catalog);
    this.journal = undefined;
  }
}
