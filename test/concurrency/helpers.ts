import type { Db, MongoClient } from 'mongodb';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, freshDatabaseUri, rawClient, type TestService } from '../helpers/server.js';

/** Stored documents as the raw driver sees them (storage layout, docs/ARCHITECTURE.md). */
export type RawDoc = Record<string, unknown> & { _id: number };

/** One or more services on one database, a full-access token valid on all, and a raw driver on the same database. */
export interface Cluster {
  services: TestService[];
  db: Db;
  /** the full-access token's header */
  auth: { Authorization: string };
  /** the i-th request goes to service i mod n */
  put(i: number, path: string, body: unknown): request.Test;
  post(i: number, path: string, body: unknown): request.Test;
  del(i: number, path: string): request.Test;
  get(path: string): request.Test;
  docs(collection: string, filter?: Record<string, unknown>): Promise<RawDoc[]>;
  close(): Promise<void>;
}

/** The demo app's users-permissions settings with one JWT secret, as instances behind one load balancer share it. */
const SHARED_SECRET = {
  plugins: {
    'users-permissions': {
      enabled: true,
      config: { jwt: { expiresIn: '30d' }, ratelimit: { enabled: false }, jwtSecret: 'cluster-jwt-secret' },
    },
  },
};

export async function startCluster(instances: number): Promise<Cluster> {
  const uri = freshDatabaseUri();
  const services: TestService[] = [];
  for (let i = 0; i < instances; i++) services.push(await createTestService({ config: SHARED_SECRET }, uri));
  const { accessKey } = await createApiToken(services[0].context, { name: 'concurrency', type: 'full-access' });
  const auth = { Authorization: `Bearer ${accessKey}` };
  const raw: MongoClient = await rawClient();
  const db = raw.db(services[0].context.connection.db?.databaseName);
  const app = (i: number) => services[i % services.length].app;
  return {
    services,
    db,
    auth,
    put: (i, path, body) =>
      request(app(i))
        .put(path)
        .set(auth)
        .send(body as object),
    post: (i, path, body) =>
      request(app(i))
        .post(path)
        .set(auth)
        .send(body as object),
    del: (i, path) => request(app(i)).delete(path).set(auth),
    get: (path) => request(app(0)).get(path).set(auth),
    docs: (collection, filter = {}) =>
      db.collection<RawDoc>(collection).find(filter).sort({ _id: 1 }).toArray() as Promise<RawDoc[]>,
    async close() {
      await raw.close();
      for (const service of services.slice(1)) await service.stop();
      await services[0].close();
    },
  };
}

export const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Creates `count` entries of a collection type and answers their ids. */
export async function createMany(
  cluster: Cluster,
  plural: string,
  count: number,
  data: (i: number) => object,
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await cluster.post(0, `/api/${plural}`, { data: data(i) });
    if (res.status !== 200) throw new Error(`create ${plural}: ${res.status} ${JSON.stringify(res.body)}`);
    ids.push((res.body as { data: { id: number } }).data.id);
  }
  return ids;
}

export function statuses(responses: request.Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const res of responses) counts[res.status] = (counts[res.status] ?? 0) + 1;
  return counts;
}
