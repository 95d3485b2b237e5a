import { readFileSync } from 'node:fs';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { SEED_FILE } from './fixtures.js';
import type { TestService } from './server.js';

export interface SeedOperation {
  contentType?: string;
  body?: Record<string, unknown>;
  expectId?: number;
  localizationOf?: number;
  locale?: string;
  updateId?: number;
  single?: boolean;
  register?: boolean;
}

export const seedOperations: SeedOperation[] = (
  JSON.parse(readFileSync(SEED_FILE, 'utf8')) as {
    operations: SeedOperation[];
  }
).operations;

/** HTTP writes with a full-access API token, and raw reads of what is stored. */
export interface WriteClient {
  post(path: string, body?: unknown): request.Test;
  put(path: string, body?: unknown): request.Test;
  del(path: string): request.Test;
  get(path: string): request.Test;
  /** the stored document (storage layout), or null */
  stored(uid: string, id: number): Promise<Record<string, unknown> | null>;
  count(uid: string, filter?: Record<string, unknown>): Promise<number>;
}

export async function writeClient(service: TestService): Promise<WriteClient> {
  const { accessKey } = await createApiToken(service.context, {
    name: `writes-${Math.random().toString(36).slice(2)}`,
    type: 'full-access',
  });
  const auth = { Authorization: `Bearer ${accessKey}` };
  const app = service.app;
  const collection = (uid: string) => service.context.models.collection(uid);
  return {
    post: (path, body) =>
      request(app)
        .post(path)
        .set(auth)
        .send(body as object),
    put: (path, body) =>
      request(app)
        .put(path)
        .set(auth)
        .send(body as object),
    del: (path) => request(app).delete(path).set(auth),
    get: (path) => request(app).get(path).set(auth),
    stored: async (uid, id) => (await collection(uid).findOne({ _id: id as never })) as Record<string, unknown> | null,
    count: (uid, filter = {}) => collection(uid).countDocuments(filter),
  };
}

/** Replays seed operations (creates, localizations, updates, single types) until `stop` says so. */
export async function replaySeed(
  client: WriteClient,
  stop: (op: SeedOperation) => boolean = () => false,
): Promise<void> {
  for (const op of seedOperations) {
    if (stop(op)) return;
    if (op.register || !op.contentType || !op.body) continue;
    let res: request.Response;
    if (op.localizationOf !== undefined)
      res = await client.post(`/api/${op.contentType}/${op.localizationOf}/localizations`, {
        ...op.body,
        locale: op.locale,
      });
    else if (op.updateId !== undefined)
      res = await client.put(`/api/${op.contentType}/${op.updateId}`, { data: op.body });
    else if (op.single) res = await client.put(`/api/${op.contentType}`, { data: op.body });
    else res = await client.post(`/api/${op.contentType}`, { data: op.body });
    if (res.status !== 200)
      throw new Error(`seed ${JSON.stringify(op).slice(0, 120)} → ${res.status} ${JSON.stringify(res.body)}`);
    const id = (res.body as { id?: number; data?: { id?: number } }).data?.id ?? (res.body as { id?: number }).id;
    if (op.expectId !== undefined && id !== op.expectId) throw new Error(`seed expected id ${op.expectId}, got ${id}`);
  }
}
