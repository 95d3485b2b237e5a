import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceConfig } from '../config/index.js';
import type { Logger } from '../logger.js';
import { startEngineThread } from './engine-thread.js';

export interface DatabaseHandle {
  uri: string;
  /** how it was chosen, for the start-up log */
  description: string;
  /**
   * Settles once the database answers reads without first loading its data (the embedded
   * engine's documents decoded after a start on persisted data); none for an external MongoDB.
   */
  ready?: Promise<void>;
  /** stops what this process started (nothing for an external MongoDB) */
  stop(): Promise<void>;
}

interface MemoryServerModule {
  MongoMemoryServer: {
    create(opts: { binary: { systemBinary: string } }): Promise<{ getUri(): string; stop(): Promise<boolean> }>;
  };
}

/**
 * Which database the service runs on, first that applies: `MONGODB_URI` (a real server) → `MONGOMS_SYSTEM_BINARY` (mongodb-memory-server-core
 * with that binary, never a download) → the embedded engine (persisted in `dataDir`, or in memory),
 * in a worker thread of this process, with transactions unless `ENGINE_TRANSACTIONS=off`.
 */
export async function selectDatabase(
  config: ServiceConfig,
  options: { memory: boolean; repair?: boolean; logger?: Logger },
): Promise<DatabaseHandle> {
  if (config.database.uri) {
    return { uri: config.database.uri, description: `MongoDB at ${redact(config.database.uri)}`, stop: async () => {} };
  }
  const systemBinary = process.env.MONGOMS_SYSTEM_BINARY;
  if (systemBinary) {
    const moduleName = 'mongodb-memory-server-core';
    const { MongoMemoryServer } = (await import(moduleName)) as MemoryServerModule;
    const server = await MongoMemoryServer.create({ binary: { systemBinary } });
    return {
      uri: `${server.getUri().replace(/\/?$/, '/')}content`,
      description: `mongod ${systemBinary} (mongodb-memory-server-core)`,
      stop: async () => {
        await server.stop();
      },
    };
  }
  const dataDir = options.memory ? undefined : config.database.dataDir;
  const engine = await startEngineThread({
    host: '127.0.0.1',
    dataDir,
    repair: options.repair,
    transactions: process.env.ENGINE_TRANSACTIONS !== 'off',
    logger: options.logger,
  });
  let stopping: Promise<void> | undefined;
  const database = (uri: string) => `${uri.replace(/\/?$/, '/')}content`;
  // The data directory is locked while this process runs; the address lets `content-service token`
  // on this machine use the same database through this engine (see runningEngineUri).
  if (dataDir) writeFileSync(join(dataDir, RUNNING_URI_FILE), `${database(engine.uri)}\n`, { mode: 0o600 });
  return {
    uri: database(engine.socketUri),
    description: dataDir ? `embedded engine, data in ${dataDir}` : 'embedded engine, in memory',
    ready: engine.decoded,
    // once, whoever asks again (an early start's owner after createServer stopped it on a failure)
    stop: () =>
      (stopping ??= (async () => {
        if (dataDir) rmSync(join(dataDir, RUNNING_URI_FILE), { force: true });
        await engine.stop();
      })()),
  };
}

/** In a persisted engine's data directory: the URI of the engine a running service started. */
export const RUNNING_URI_FILE = 'running-engine.uri';

function redact(uri: string): string {
  return uri.replace(/\/\/[^@/]*@/, '//***@');
}
