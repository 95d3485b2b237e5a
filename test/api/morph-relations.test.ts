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
import { startUpError } from '../helpers/start-up-error.js';
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
    public: [
      'api::item.item.find',
      'api::item.item.findOne',
      'api::page.page.find',
      'api::item.item.create',
      'api::item.item.sanitized',
    ],
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
  // a controller action answering an entry read by the entity service through sanitizeOutput
  'src/api/item/controllers/item.js': `module.exports = require('@strapi/strapi').factories.createCoreController('api::item.item', ({ strapi }) => ({
  async sanitized(ctx) {
    const entity = await strapi.entityService.findOne('api::item.item', ctx.params.id, { populate: ['related'] });
    return this.sanitizeOutput(entity, ctx);
  },
}));
`,
  'src/api/item/routes/item.js':
    "module.exports = require('@strapi/strapi').factories.createCoreRouter('api::item.item');",
  'src/api/item/routes/sanitized.js':
    "module.exports = { routes: [{ method: 'GET', path: '/items/:id/sanitized', handler: 'item.sanitized' }] };",
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
  const storedItem = async (id: unknown) =>
    (
      await service.context.models
        .collection('api::item.item')
        .aggregate([{ $match: { _id: id } }])
        .toArray()
    )[0];

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

  it('REST writes links (a list replaces the stored one); populate with fields, on fragments and nested populate', async () => {
    const created = await request(service.app)
      .post('/api/items')
      .set(bearer(token))
      .send({
        data: {
          label: 'Footer',
          related: [
            { __type: 'api::page.page', id: ids.home },
            { __type: 'api::article.article', id: ids.live },
            { __type: 'api::page.page', id: ids.home },
          ],
        },
      });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body.data.attributes).to.not.have.property('related');
    ids.footer = created.body.data.id;
    const fields = await get(`/api/items/${ids.footer}?populate[related][fields][0]=title`).expect(200);
    // an exact repeat is linked once (Strapi's toIdArray keeps unique links)
    expect(fields.body.data.attributes.related).to.deep.equal([
      { __type: 'api::page.page', id: ids.home, title: 'Home' },
      { __type: 'api::article.article', id: ids.live, title: 'Live' },
    ]);
    const on = await get(
      `/api/items/${ids.footer}?populate[related][on][api::article.article][fields][0]=title&populate[related][on][api::article.article][populate][category][fields][0]=name`,
    ).expect(200);
    expect(on.body.data.attributes.related).to.deep.equal([
      {
        __type: 'api::article.article',
        id: ids.live,
        title: 'Live',
        category: { id: ids.news, name: 'News' },
      },
    ]);
    const updated = await request(service.app)
      .put(`/api/items/${ids.footer}`)
      .set(bearer(token))
      .send({ data: { related: [{ __type: 'api::page.page', id: String(ids.about) }] } })
      .expect(200);
    expect(updated.body.data.id).to.equal(ids.footer);
    const after = await get(`/api/items/${ids.footer}?populate[related][fields][0]=title`).expect(200);
    expect(after.body.data.attributes.related).to.deep.equal([
      { __type: 'api::page.page', id: ids.about, title: 'About' },
    ]);
  });

  it('an empty list is left out of a REST answer (Strapi sanitizes it away) and is [] from the entity service', async () => {
    const item = (await call('create', 'api::item.item', { data: { label: 'Empty', related: [] } })) as { id: number };
    const res = await get(`/api/items/${item.id}?populate=*`).expect(200);
    expect(res.body.data.attributes).to.not.have.property('related');
    expect(res.body.data.attributes.featured).to.equal(null);
    const read = (await call('findOne', 'api::item.item', item.id, { populate: ['related'] })) as Record<
      string,
      unknown
    >;
    expect(read.related).to.deep.equal([]);
  });

  it('drafts are linked but read only with preview', async () => {
    const item = (await call('create', 'api::item.item', {
      data: {
        label: 'Drafts',
        related: [
          { __type: 'api::article.article', id: ids.draft },
          { __type: 'api::page.page', id: ids.home },
        ],
      },
    })) as { id: number };
    const live = await get(`/api/items/${item.id}?populate[related][fields][0]=title`).expect(200);
    expect(live.body.data.attributes.related.map((r: { title: string }) => r.title)).to.deep.equal(['Home']);
    const preview = await get(
      `/api/items/${item.id}?populate[related][fields][0]=title&publicationState=preview`,
    ).expect(200);
    expect(preview.body.data.attributes.related.map((r: { title: string }) => r.title)).to.deep.equal([
      'Draft',
      'Home',
    ]);
  });

  it('bad links are a 400 that changes nothing', async () => {
    const send = (data: Record<string, unknown>) =>
      request(service.app).post('/api/items').set(bearer(token)).send({ data });
    const before = await get('/api/items').expect(200);
    const noType = await send({ label: 'x', related: [{ id: ids.home }] }).expect(400);
    expect(noType.body.error.name).to.equal('ValidationError');
    expect(noType.body.error.details.errors[0].path).to.deep.equal(['related', '0']);
    const unknown = await send({ label: 'x', related: [{ __type: 'api::nope.nope', id: 1 }] }).expect(400);
    expect(unknown.body.error.message).to.contain('__type must name a content-type');
    const missing = await send({ label: 'x', featured: { __type: 'api::page.page', id: 999 } }).expect(400);
    expect(missing.body.error.message).to.equal(
      '1 relation(s) of type api::page.page associated with this entity do not exist',
    );
    await send({ label: 'x', related: { connect: [{ __type: 'api::page.page', id: ids.home }] } }).expect(400);
    await send({ label: 'x', featured: [{ __type: 'api::page.page', id: ids.home }] }).expect(400);
    const after = await get('/api/items').expect(200);
    expect(after.body.meta.pagination.total).to.equal(before.body.meta.pagination.total);
  });

  it('filters and sort on a morphTo attribute are refused as Strapi 4.26 validates them', async () => {
    const filtered = await get(`/api/items?filters[related][id]=${ids.home}`).expect(400);
    expect(filtered.body.error.message).to.equal('Invalid parameter related');
    const sorted = await get('/api/items?sort=related').expect(400);
    expect(sorted.body.error.message).to.equal('Invalid parameter related');
  });

  it('the public role reads and writes links only to the types it may read', async () => {
    const item = (await call('create', 'api::item.item', {
      data: {
        label: 'Mixed',
        related: [
          { __type: 'api::article.article', id: ids.live },
          { __type: 'api::page.page', id: ids.about },
        ],
      },
    })) as { id: number };
    const res = await request(service.app).get(`/api/items/${item.id}?populate=*`).expect(200);
    expect(res.body.data.attributes.related.map((r: { __type: string }) => r.__type)).to.deep.equal(['api::page.page']);
    const created = await request(service.app)
      .post('/api/items')
      .send({
        data: {
          label: 'Public',
          related: [
            { __type: 'api::article.article', id: ids.live },
            { __type: 'api::page.page', id: ids.home },
          ],
        },
      })
      .expect(200);
    const stored = await storedItem(created.body.data.id);
    expect(stored?.related).to.deep.equal([{ __type: 'api::page.page', id: ids.home }]);
  });

  it('strapi.db.query writes links too; a morphMany side lists the entries linking back', async () => {
    const item = (
      await request(service.app)
        .post('/api/call')
        .send({
          uid: 'api::item.item',
          method: 'create',
          args: [{ data: { label: 'Query', related: [{ __type: 'api::page.page', id: ids.about }] } }],
        })
        .expect(200)
    ).body as { result: { id: number } };
    const page = await get(`/api/pages/${ids.about}?populate[items][fields][0]=label`).expect(200);
    const labels = page.body.data.attributes.items.data.map(
      (i: { attributes: { label: string } }) => i.attributes.label,
    );
    expect(labels).to.include.members(['Menu', 'Footer', 'Query']);
    expect(page.body.data.attributes.items.data.find((i: { id: number }) => i.id === item.result.id)).to.deep.equal({
      id: item.result.id,
      attributes: { label: 'Query' },
    });
    const plain = (await call('findOne', 'api::page.page', ids.about, {
      populate: { items: { fields: ['label'] } },
    })) as {
      items: { label: string }[];
    };
    expect(plain.items.map((i) => i.label)).to.include('Query');
  });

  it('deleting a linked entry removes its links', async () => {
    const doomed = ((await call('create', 'api::page.page', { data: { title: 'Doomed' } })) as { id: number }).id;
    const item = (await call('create', 'api::item.item', {
      data: {
        label: 'Sweep',
        related: [
          { __type: 'api::page.page', id: doomed },
          { __type: 'api::page.page', id: ids.home },
        ],
        featured: { __type: 'api::page.page', id: doomed },
      },
    })) as { id: number };
    await request(service.app).delete(`/api/pages/${doomed}`).set(bearer(token)).expect(200);
    const stored = await storedItem(item.id);
    expect(stored?.related).to.deep.equal([{ __type: 'api::page.page', id: ids.home }]);
    expect(stored?.featured).to.equal(null);
  });

  it('GraphQL: [GenericMorph] and GenericMorph resolve each link to its type, read with the entry', async () => {
    const query = `{ items(filters: { label: { in: ["Menu", "Empty"] } }, sort: "id") { data { attributes {
      label
      related { __typename ... on Page { title } ... on Article { title category { data { attributes { name } } } } }
      featured { __typename ... on Page { title } }
    } } } }`;
    commands.length = 0;
    const res = await request(service.app).post('/graphql').set(bearer(token)).send({ query }).expect(200);
    expect(res.body.errors).to.equal(undefined);
    const [menu, empty] = res.body.data.items.data.map((d: { attributes: unknown }) => d.attributes);
    expect(menu.related).to.deep.equal([
      { __typename: 'Article', title: 'Live', category: { data: { attributes: { name: 'News' } } } },
      { __typename: 'Page', title: 'About' },
      { __typename: 'Page', title: 'Home' },
    ]);
    expect(menu.featured).to.deep.equal({ __typename: 'Page', title: 'Home' });
    // Strapi's sanitizer leaves an empty list out: the field answers null
    expect(empty).to.deep.equal({ label: 'Empty', related: null, featured: null });
    // the items, then one read per linked type of each field: articles and pages, pages
    expect(commands).to.deep.equal(['aggregate', 'aggregate', 'aggregate', 'aggregate']);
    const sdl = await request(service.app)
      .post('/graphql')
      .set(bearer(token))
      .send({ query: '{ __type(name: "Item") { fields { name type { kind name ofType { name } } } } }' })
      .expect(200);
    const fields = sdl.body.data.__type.fields as {
      name: string;
      type: { kind: string; name: string | null; ofType: { name: string } | null };
    }[];
    expect(fields.find((f) => f.name === 'related')?.type).to.deep.equal({
      kind: 'LIST',
      name: null,
      ofType: { name: 'GenericMorph' },
    });
    expect(fields.find((f) => f.name === 'featured')?.type).to.deep.equal({
      kind: 'UNION',
      name: 'GenericMorph',
      ofType: null,
    });
  });

  it('populate filters apply to each linked type; nested populate=* populates each type', async () => {
    const filtered = await get(
      `/api/items/${ids.menu}?populate[related][fields][0]=title&populate[related][filters][title][$ne]=About`,
    ).expect(200);
    expect(filtered.body.data.attributes.related.map((r: { title: string }) => r.title)).to.deep.equal([
      'Live',
      'Home',
    ]);
    const nested = await get(`/api/items/${ids.menu}?populate[related][populate]=*`).expect(200);
    const [article] = nested.body.data.attributes.related;
    expect(article.category).to.include({ id: ids.news, name: 'News' });
  });

  it('entityService.update takes { set } and null; the stored list is replaced', async () => {
    const item = (await call('create', 'api::item.item', {
      data: { label: 'Set', related: [{ __type: 'api::page.page', id: ids.home }] },
    })) as { id: number };
    await call('update', 'api::item.item', item.id, {
      data: {
        related: {
          set: [
            { __type: 'api::page.page', id: ids.about },
            { __type: 'api::article.article', id: ids.live },
          ],
        },
      },
    });
    expect((await storedItem(item.id))?.related).to.deep.equal([
      { __type: 'api::page.page', id: ids.about },
      { __type: 'api::article.article', id: ids.live },
    ]);
    await call('update', 'api::item.item', item.id, { data: { related: null, featured: null } });
    const stored = await storedItem(item.id);
    expect(stored?.related).to.deep.equal([]);
    expect(stored?.featured).to.equal(null);
  });
  it("strapi.db.query filters on Strapi's morphToOne columns target_id / target_type; the content API does not", async () => {
    const res = await request(service.app)
      .post('/api/call')
      .send({
        uid: 'api::item.item',
        method: 'findMany',
        args: [{ where: { target_id: String(ids.home), target_type: 'api::page.page' }, select: ['label'] }],
      })
      .expect(200);
    expect((res.body.result as { label: string }[]).map((item) => item.label)).to.deep.equal(['Menu']);
    const rest = await get(`/api/items?filters[target_id]=${ids.home}`).expect(400);
    expect(rest.body.error.message).to.equal('Invalid parameter target_id');
  });

  it("a controller's sanitizeOutput keeps the links the caller may read and leaves an empty list out", async () => {
    const mixed = (await call('create', 'api::item.item', {
      data: {
        label: 'Sanitized',
        related: [
          { __type: 'api::article.article', id: ids.live },
          { __type: 'api::page.page', id: ids.about },
        ],
      },
    })) as { id: number };
    const res = await request(service.app).get(`/api/items/${mixed.id}/sanitized`).expect(200);
    expect(res.body.related.map((r: { __type: string; id: number }) => [r.__type, r.id])).to.deep.equal([
      ['api::page.page', ids.about],
    ]);
    const empty = (await call('create', 'api::item.item', { data: { label: 'Nothing', related: [] } })) as {
      id: number;
    };
    const none = await request(service.app).get(`/api/items/${empty.id}/sanitized`).expect(200);
    expect(none.body).to.include({ label: 'Nothing' }).and.not.have.property('related');
  });
});

describe('polymorphic relations that cannot start', () => {
  const note = (attributes: Record<string, unknown>) => ({
    'src/api/other/content-types/other/schema.json': schema('other', 'others', attributes),
  });

  it('a morphMany whose morphBy names no morphTo attribute, a morph relation in a component', async () => {
    expect(
      await startUpError(
        note({ notes: { type: 'relation', relation: 'morphMany', target: 'api::note.note', morphBy: 'owner' } }),
      ),
    ).to.contain('morphBy "owner" must name a morphToOne or morphToMany attribute of api::note.note');
    expect(
      await startUpError({
        ...note({ block: { type: 'component', component: 'shared.block' } }),
        'src/components/shared/block.json': JSON.stringify({
          info: { displayName: 'Block' },
          attributes: { link: { type: 'relation', relation: 'morphToOne' } },
        }),
      }),
    ).to.contain('a morphToOne relation cannot be declared in a component');
  });
});
