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
export async function createTestService(options: CreateServerOptions = {}): Promise<TestService> {
  const databaseUri = freshDatabaseUri();
  const service = await createServer({ appDir: PUBLICATION_APP, ...options, databaseUri });
  return Object.assign(service, {
    async close() {
      await service.context.connection.dropDatabase().catch(() => {});
      await service.stop();
    },
  });
}

/** A raw driver client on the test server, for assertions on what is stored. */
export async function rawClient(): Promise<MongoClient> {
  return MongoClient.connect(testServerUri());
}
