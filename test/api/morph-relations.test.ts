// Polymorphic (morph) relations as Strapi 4.26 handles them through its content API and its
// entity service: a morphToMany / morphToOne stores `{ __type, id }` links (written from REST and
// from server code), populate reads one query per linked type (`*`, named, `fields`, nested
// `populate`, `on` fragments), REST answers the links flat (`{ __type, id, ...attributes }`, no
// `data` envelope; an empty list left out), a morphMany side lists the entries linking back, and
// deleting a linked entry removes its links.
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createCommandCountingService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';
import { bearer } from './users-permissions/helpers.js';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const schema = (singular: string, plural: string, attributes: Record<string, unknown>, draftAndPublish = false) =>
  JSON.stringify({
    kind: 'collectionType',
    collectionName: plural.replace(/-/g, '_'),
    info: { singularName: singular, pluralName: plural, displayName: singular },
    options: { draftAndPublish },
    attributes,
  });

const FILES: Record<string, string> = {
  'config/permissions.json': JSON.stringify({
    public: ['api::item.item.find', 'api::item.item.findOne', 'api::page.page.find', 'api::item.item.create'],
  }),
  'src/api/page/content-types/page/schema.json': schema('page', 'pages', {
    title: { type: 'string' },
    secret: { type: 'string', private: true },
    items: { type: 'relation', relation: 'morphMany', target: 'api::item.item', morphBy: 'related' },
  }),
  'src/api/article/content-types/article/schema.json': schema(
    'article',
    'articles',
    {
      title: { type: 'string' },
      category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category' },
    },
    true,
  ),
  'src/api/category/content-types/category/schema.json': schema('category', 'categories', {
    name: { type: 'string' },
  }),
  'src/api/item/content-types/item/schema.json': schema('item', 'items', {
    label: { type: 'string' },
    related: { type: 'relation', relation: 'morphToMany' },
    featured: { type: 'relation', relation: 'morphToOne' },
  }),
  // `POST /api/call` runs strapi.entityService[method](...args), or strapi.db.query(uid)[method] with `uid`
  'src/index.js': `module.exports = {
  register({ strapi }) {
    strapi.server.routes({ type: 'content-api', routes: [
      { method: 'POST', path: '/call', config: { auth: false }, handler: async (ctx) => {
        const { method, args, uid } = ctx.request.body;
        try {
          const target = uid ? strapi.db.query(uid) : strapi.entityService;
          ctx.body = { result: await target[method](...args) };
        } catch (err) {
          ctx.body = { error: err.name + ': ' + err.message };
        }
      } },
    ] });
  },
};
`,
};

describe('polymorphic (morph) relations', function () {
  this.timeout(60_000);
  let service: TestService;
  let commands: string[];
  let token: string;
  const ids: Record<string, number> = {};

  const call = async (method: string, ...args: unknown[]) => {
    const res = await request(service.app).post('/api/call').send({ method, args }).expect(200);
    const body = res.body as { result?: unknown; error?: string };
    if (body.error) throw new Error(body.error);
    return body.result;
  };
  const get = (path: string) => request(service.app).get(path).set(bearer(token));

  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-morph-'));
    await writeFiles(appDir, FILES);
    ({ service, commands } = await createCommandCountingService({ appDir }));
    token = (await createApiToken(service.context, { name: 'morph', type: 'full-access' })).accessKey;
    const create = async (uid: string, data: Record<string, unknown>) =>
      ((await call('create', uid, { data })) as { id: number }).id;
    ids.home = await create('api::page.page', { title: 'Home', secret: 's' });
    ids.about = await create('api::page.page', { title: 'About' });
    ids.news = await create('api::category.category', { name: 'News' });
    ids.live = await create('api::article.article', {
      title: 'Live',
      category: ids.news,
      publishedAt: new Date().toISOString(),
    });
    ids.draft = await create('api::article.article', { title: 'Draft', publishedAt: null });
  });
  after(() => service.close());

  it('entityService.create stores the links in order; populate reads them with __type, one read per type', async () => {
    const created = (await call('create', 'api::item.item', {
      data: {
        label: 'Menu',
        related: [
          { __type: 'api::article.article', id: ids.live },
          { __type: 'api::page.page', id: ids.about },
          { __type: 'api::page.page', id: ids.home },
        ],
        featured: { __type: 'api::page.page', id: ids.home },
      },
      populate: { related: true, featured: true },
    })) as Record<string, unknown>;
    ids.menu = created.id as number;
    const related = created.related as Record<string, unknown>[];
    expect(related.map((r) => [r.__type, r.id])).to.deep.equal([
      ['api::article.article', ids.live],
      ['api::page.page', ids.about],
      ['api::page.page', ids.home],
    ]);
    expect(related[1]).to.include({ title: 'About' });
    expect(created.featured).to.include({ id: ids.home, title: 'Home' });

    commands.length = 0;
    const res = await get(`/api/items/${ids.menu}?populate=*`).expect(200);
    const attrs = res.body.data.attributes;
    expect(attrs.related.map((r: Record<string, unknown>) => r.title)).to.deep.equal(['Live', 'About', 'Home']);
    expect(attrs.related[0]).to.have.keys(['__type', 'id', 'title', 'createdAt', 'updatedAt', 'publishedAt']);
    expect(attrs.related[2]).to.not.have.property('secret');
    expect(attrs.featured).to.include({ id: ids.home, title: 'Home' });
    expect(attrs.featured).to.not.have.property('__type');
    // the item, then one read per linked type (articles, pages) for `related` and one for `featured`
    expect(commands.filter((c) => c === 'aggregate')).to.have.length(4);
  });
});
