import { EngineServer } from './server.js';

export interface EngineOptions {
  /** 0 or undefined: a free port */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** persist here (journal + snapshot, locked); undefined: in memory */
  dataDir?: string;
  logger?: (msg: string) => void;
}

export interface Engine {
  uri: string;
  port: number;
  stop(): Promise<void>;
}

/** Starts the embedded MongoDB-compatible server (see README.md in this folder). */
export async function startEngine(opts: EngineOptions = {}): Promise<Engine> {
  const host = opts.host ?? '127.0.0.1';
  const server = new EngineServer({
    host,
    port: opts.port ?? 0,
    dataDir: opts.dataDir,
    logger: opts.logger ?? (() => {}),
  });
  const port = await server.start();
  let stopped: Promise<void> | undefined;
  return {
    uri: `mongodb://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    stop: () => (stopped ??= server.stop()),
  };
}
