// strapi.db.query('webhook'): Strapi v4's query engine on its own webhook model, as projects use
// it in bootstrap to make a webhook once (find it by name, else create it through the store), and
// its reads and writes with the rows Strapi's model has ({ id, name, url, headers, events, enabled }).
import { expect } from 'chai';
import request from 'supertest';
import { runningStrapi } from '../../src/lifecycle/index.js';
import { createTestService, freshDatabaseUri, type TestService } from '../helpers/server.js';
import { collectionTypeSchema, writeTempProject } from '../helpers/temp-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const FILES = (receiverUrl: string): Record<string, string> => ({
  'config/permissions.json': JSON.stringify({ public: ['api::page.page.create'] }),
  'src/api/page/content-types/page/schema.json': JSON.stringify(
    collectionTypeSchema('page', 'pages', { title: { type: 'string' } }),
  ),
  'src/index.js': `module.exports = {
  async bootstrap({ strapi }) {
    const webhook = await strapi.db.query('webhook').findOne({ where: { name: 'Bootstrapped Revalidate' } });
    if (!webhook) {
      await strapi.webhookStore.createWebhook({
        id: 'Bootstrapped Revalidate',
        name: 'Bootstrapped Revalidate',
        url: ${JSON.stringify(receiverUrl)},
        events: ['entry.create'],
        headers: {},
        isEnabled: true,
      });
      strapi.log.info('revalidate webhook created');
    }
  },
};`,
});

type Row = Record<string, unknown> & { id: number };

describe("strapi.db.query('webhook') (Strapi's webhook model)", () => {
  let receiver: WebhookReceiver;
  let appDir: string;
  let databaseUri: string;
  let service: TestService;
  const query = () => {
    const strapi = runningStrapi();
    if (!strapi) throw new Error('no running strapi');
    return strapi.db.query('webhook');
  };

  before(async () => {
    receiver = await startWebhookReceiver();
    appDir = await writeTempProject(FILES(receiver.url('/revalidate')));
    databaseUri = freshDatabaseUri();
    service = await createTestService({ appDir }, databaseUri);
  });
  after(async () => {
    await service.close();
    await receiver.close();
  });

  it('lets a bootstrap find the webhook it made by name, so a second start makes no second one', async () => {
    const [made] = (await query().findMany({ where: { name: 'Bootstrapped Revalidate' } })) as Row[];
    expect(made).to.deep.include({ name: 'Bootstrapped Revalidate', url: receiver.url('/revalidate'), enabled: true });
    expect(made?.events).to.deep.equal(['entry.create']);
    expect(made).not.to.have.property('isEnabled');
    // the same project started again on the same database
    const first = globalThis.strapi;
    const again = await createTestService({ appDir }, databaseUri);
    try {
      expect(await query().count({ where: { name: 'Bootstrapped Revalidate' } })).to.equal(1);
    } finally {
      await again.stop();
      globalThis.strapi = first;
    }
    await request(service.app)
      .post('/api/pages')
      .send({ data: { title: 'Hello' } })
      .expect(200);
    const [call] = await receiver.waitFor('/revalidate', 'entry.create');
    expect(call?.body.entry).to.include({ title: 'Hello' });
  });

  it('filters with the filters language, orders, pages and selects as the query engine does', async () => {
    await query().create({
      data: { name: 'b-hook', url: 'https://example.com/b', headers: {}, events: [], enabled: false },
    });
    await query().create({
      data: { name: 'a-hook', url: 'https://example.com/a', headers: {}, events: [], enabled: true },
    });
    const disabled = (await query().findMany({ where: { enabled: false } })) as Row[];
    expect(disabled.map((row) => row.name)).to.deep.equal(['b-hook']);
    const hooks = (await query().findMany({
      where: { name: { $endsWith: '-hook' } },
      orderBy: { name: 'asc' },
      select: ['name'],
    })) as Row[];
    expect(hooks).to.deep.equal([
      { id: hooks[0]?.id, name: 'a-hook' },
      { id: hooks[1]?.id, name: 'b-hook' },
    ]);
    const second = (await query().findMany({ orderBy: [{ id: 'desc' }], limit: 1, offset: 1 })) as Row[];
    expect(second.map((row) => row.name)).to.deep.equal(['b-hook']);
    expect(await query().count({ where: { $or: [{ name: 'a-hook' }, { url: { $contains: '/b' } }] } })).to.equal(2);
  });

  it('updates and deletes the first row where matches, seen by the webhook store', async () => {
    const updated = (await query().update({ where: { name: 'a-hook' }, data: { enabled: false, unknown: 1 } })) as Row;
    expect(updated).to.include({ name: 'a-hook', enabled: false }).and.not.to.have.property('unknown');
    const fromStore = await runningStrapi()?.webhookStore.findWebhook(updated.id);
    expect(fromStore).to.include({ name: 'a-hook', isEnabled: false });
    expect(await query().update({ where: { name: 'none' }, data: { enabled: true } })).to.equal(null);
    const deleted = (await query().delete({ where: { name: 'b-hook' } })) as Row;
    expect(deleted).to.include({ name: 'b-hook' });
    expect(await query().deleteMany({ where: { name: { $in: ['a-hook', 'b-hook'] } } })).to.deep.equal({ count: 1 });
    expect(await query().count()).to.equal(1);
  });

  it('refuses a where on what the model does not have, changing nothing', async () => {
    let error: unknown;
    try {
      await query().deleteMany({ where: { secret: 'x' } });
    } catch (caught) {
      error = caught;
    }
    expect(error).to.have.property('name', 'ValidationError');
    expect(await query().count()).to.equal(1);
  });
});
