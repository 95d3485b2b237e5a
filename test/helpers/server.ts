import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createServer, type ContentService, type CreateServerOptions } from '../../src/app.js';

import { PUBLICATION_APP } from './fixtures.js';

export { PUBLICATION_APP };

/** The database server of this test run (see test/setup.ts), without a database name. */
export function testServerUri(): string {
  const uri = process.env.CS_TEST_MONGODB_URI;
  if (!uri) throw new Error('CS_TEST_MONGODB_URI is not set: test/setup.ts did not run');
  return uri;
}

/** A URI naming a fresh database of its own, so suites never see each other's data. */
export function freshDatabaseUri(): string {
  const url = new URL(testServerUri());
  url.pathname = `/test_${randomBytes(6).toString('hex')}`;
  return url.toString();
}

export interface TestService extends ContentService {
  /** drops the database and stops the service */
  close(): Promise<void>;
}

/** The whole service on a fresh database (no listening socket; use supertest on `.app`). */
export async function createTestService(
  options: CreateServerOptions = {},
  databaseUri = freshDatabaseUri(),
): Promise<TestService> {
  const service = await createServer({ appDir: PUBLICATION_APP, ...options, databaseUri });
  return Object.assign(service, {
    async close() {
      await service.context.connection.dropDatabase().catch(() => {});
      await service.stop();
    },
  });
}

/**
 * A test service whose driver reports its commands: `commands` collects the name of every command
 * sent to an api content-type's collection (auth and permission look-ups are not the read path's).
 */
export async function createCommandCountingService(
  options: CreateServerOptions = {},
): Promise<{ service: TestService; commands: string[] }> {
  const uri = new URL(freshDatabaseUri());
  uri.searchParams.set('monitorCommands', 'true');
  const service = await createTestService(options, uri.toString());
  const contentCollections = new Set(
    service.context.registry
      .listContentTypes()
      .filter((ct) => ct.namespace === 'api')
      .map((ct) => ct.collectionName),
  );
  const commands: string[] = [];
  service.context.connection.getClient().on('commandStarted', (event) => {
    const target: unknown = event.command[event.commandName];
    if (typeof target === 'string' && contentCollections.has(target)) commands.push(event.commandName);
  });
  return { service, commands };
}

/** A raw driver client on the test server, for assertions on what is stored. */
export async function rawClient(): Promise<MongoClient> {
  return MongoClient.connect(testServerUri());
}
