import type { Db } from 'mongodb';
import { createServer } from '../../src/app.js';
import { find } from '../../src/operations/index.js';
import { UNRESTRICTED, type QueryAccess } from '../../src/query/access.js';
import { seedDemoContent } from '../../src/seed/demo-seed.js';
import type { ServiceContext } from '../../src/service-context.js';
import { PUBLICATION_APP } from './fixtures.js';
import { createCommandCountingService, freshDatabaseUri, type TestService } from './server.js';
import { TEMPLATE_ENV } from '../setup.js';

let template: Promise<string> | undefined;

/**
 * The demo content (seed.json) loaded once per mocha run through the service's own operations
 * (src/seed/demo-seed.ts: validation, ids, components, localizations, Draft & Publish as any
 * client's writes) into a database of its own. Resolves with that database's name.
 */
function templateDatabase(): Promise<string> {
  template ??= (async () => {
    const uri = freshDatabaseUri();
    process.env[TEMPLATE_ENV] = uri;
    const service = await createServer({ appDir: PUBLICATION_APP, databaseUri: uri });
    try {
      if ((await seedDemoContent(service)) === 0) throw new Error('the demo seed was not loaded');
      return service.context.connection.name;
    } finally {
      await service.stop();
    }
  })();
  return template;
}

/**
 * Copies the demo content into a service's database, document for document: the entries of every
 * api content-type and the id counters they moved (components and claims included), so later
 * creates continue after them. The users the seed registers are not copied: suites register their own.
 */
export async function seedPublication(context: Pick<ServiceContext, 'registry' | 'connection'>): Promise<void> {
  const source: Db = context.connection.getClient().db(await templateDatabase());
  const target = context.connection.db;
  if (!target) throw new Error('database not connected');
  const contentTypes = context.registry.listContentTypes();
  // values kept as stored (int64 stays int64, not a promoted number)
  const raw = { promoteValues: false } as const;
  for (const ct of contentTypes.filter((type) => type.namespace === 'api')) {
    const docs = await source.collection(ct.collectionName).find({}, raw).toArray();
    if (docs.length > 0) await target.collection(ct.collectionName).insertMany(docs);
  }
  const notCopied = contentTypes.filter((type) => type.namespace !== 'api').map((type) => type.collectionName);
  const counters = await source
    .collection<{ _id: string; seq: number }>('counters')
    .find({ _id: { $nin: notCopied } })
    .toArray();
  for (const { _id, seq } of counters)
    await target
      .collection<{ _id: string; seq: number }>('counters')
      .updateOne({ _id }, { $max: { seq } }, { upsert: true });
}

/**
 * The ids `find` answers (the REST collection read: src/operations/find.ts) for a parsed query
 * string on a collection type, all on one page unless the query paginates.
 */
export async function findIds(
  context: ServiceContext,
  plural: string,
  query: Record<string, unknown>,
  access: QueryAccess = UNRESTRICTED,
): Promise<number[]> {
  const ct = context.registry.byPluralName(plural);
  if (!ct) throw new Error(`no content-type ${plural}`);
  const answer = await find({ ...context, access }, ct.uid, { pagination: { pageSize: 100 }, ...query });
  return answer.data.map((entry) => entry.id);
}

/** A command-counting test service (see server.ts) holding the publication seed. */
export async function seededCommandCountingService(): Promise<{ service: TestService; commands: string[] }> {
  const counting = await createCommandCountingService();
  await seedPublication(counting.service.context);
  return counting;
}
