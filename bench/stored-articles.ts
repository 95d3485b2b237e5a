// Receives the `POST /api/articles` bodies of ../shared/bench/load-data.mjs on a local HTTP port
// and stores them straight in the storage layout, in batches (validation and casting by the
// service's own write planner and Mongoose model, ids reserved from the same counters), so 100k+
// articles load in seconds rather than through the full write path one by one.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceContext } from '../src/service-context.js';
import { buildWrite, type NewComponent } from '../src/write/build.js';
import { assignComponentIds } from '../src/write/component-ids.js';

const UID = 'api::article.article';
const BATCH = 1000;

export interface ArticleSink {
  url: string;
  /** waits for every received article to be stored, then stops listening */
  close(): Promise<number>;
}

/** Listens on 127.0.0.1; answers each article with the id it will have once stored. */
export async function storedArticleSink(context: ServiceContext, expected: number): Promise<ArticleSink> {
  const contentType = context.registry.contentType(UID);
  if (!contentType) throw new Error(`the app has no ${UID}`);
  const model = context.models.model(UID);
  const db = context.connection.db;
  if (!db) throw new Error('not connected');
  const collection = db.collection<Record<string, unknown>>(contentType.collectionName);
  let nextId = await context.models.counters.next(contentType.collectionName, expected);
  const lastId = nextId + expected - 1;
  let pending: Array<{ doc: Record<string, unknown>; components: NewComponent[] }> = [];
  let stored = 0;
  let writing: Promise<void> = Promise.resolve();
  let failure: Error | undefined;

  const flush = () => {
    const batch = pending;
    pending = [];
    writing = writing.then(async () => {
      if (batch.length === 0 || failure) return;
      await assignComponentIds(
        context.models,
        batch.flatMap((b) => b.components),
      );
      // cast and defaulted by the Mongoose model as `create` does, then written in one command
      const now = new Date();
      const docs = batch.map((b): Record<string, unknown> => ({
        ...new model(b.doc).toObject(),
        createdAt: now,
        updatedAt: now,
      }));
      await collection.insertMany(docs, { ordered: true });
      stored += batch.length;
    });
    writing.catch((err: unknown) => {
      failure = err instanceof Error ? err : new Error(String(err));
    });
  };

  const accept = (body: string): number => {
    const { data } = JSON.parse(body) as { data: Record<string, unknown> };
    const plan = buildWrite(context.registry, contentType, data, { mode: 'create', existing: null, isDraft: false });
    if (plan.issues.length > 0) throw new Error(`invalid article: ${JSON.stringify(plan.issues).slice(0, 300)}`);
    if (nextId > lastId) throw new Error(`more than the ${expected} articles announced`);
    const id = nextId++;
    const publishedAt = typeof data.publishedAt === 'string' ? new Date(data.publishedAt) : new Date();
    pending.push({
      doc: { _id: id, ...plan.set, publishedAt, locale: 'en', localeGroup: id },
      components: plan.newComponents,
    });
    if (pending.length >= BATCH) flush();
    return id;
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      try {
        if (failure) throw failure;
        if (req.method !== 'POST' || req.url !== '/api/articles')
          throw new Error(`unexpected ${req.method} ${req.url}`);
        const id = accept(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { id } }));
      } catch (err) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(err) }));
      }
    });
  });
  // the loader keeps its connections alive across pauses of this event loop (batches being cast)
  server.keepAliveTimeout = 0;
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      flush();
      await writing;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (failure) throw failure;
      return stored;
    },
  };
}
