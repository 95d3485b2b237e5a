// A project's controller that calls @strapi/utils' sanitize and validate helpers itself (as Strapi's
// docs show for custom actions): they read `strapi.getModel` and the registries `strapi.sanitizers`
// and `strapi.validators` through the global `strapi`.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const schema = (singular: string, plural: string, attributes: Record<string, unknown>) =>
  JSON.stringify({
    kind: 'collectionType',
    collectionName: plural,
    info: { singularName: singular, pluralName: plural, displayName: singular },
    attributes,
  });

const PROJECT = {
  'package.json': JSON.stringify({ name: 'sanitize-helpers', dependencies: { '@strapi/strapi': '4.26.2' } }),
  'config/permissions.json': JSON.stringify({
    public: ['api::card.card.list', 'api::card.card.check', 'api::card.card.page', 'api::card.card.meta'],
  }),
  'src/api/card/content-types/card/schema.json': schema('card', 'cards', {
    title: { type: 'string' },
    secret: { type: 'string', private: true },
    pin: { type: 'password' },
    owner: { type: 'relation', relation: 'manyToOne', target: 'api::person.person' },
    badge: { type: 'component', component: 'parts.badge' },
  }),
  'src/api/person/content-types/person/schema.json': schema('person', 'people', {
    name: { type: 'string' },
    note: { type: 'text', private: true },
  }),
  'src/components/parts/badge.json': JSON.stringify({
    collectionName: 'components_parts_badges',
    info: { displayName: 'badge' },
    attributes: { label: { type: 'string' }, hidden: { type: 'string', private: true } },
  }),
  'src/api/card/controllers/card.js': `
    const { sanitize, validate } = require('@strapi/utils');
    module.exports = {
      async list(ctx) {
        const schema = strapi.getModel('api::card.card');
        const entries = await strapi.entityService.findMany('api::card.card', { populate: ['owner', 'badge'] });
        ctx.body = { data: await sanitize.contentAPI.output(entries, schema) };
      },
      // a users list as projects write it: validate and sanitize the query, then findPage
      async page(ctx) {
        const schema = strapi.getModel('api::card.card');
        await validate.contentAPI.query(ctx.query, schema);
        const query = await sanitize.contentAPI.query(ctx.query, schema);
        const { results, pagination } = await strapi.entityService.findPage('api::card.card', { ...query, ...query.pagination });
        ctx.body = { data: results.map((card) => card.id), pagination };
      },
      meta(ctx) {
        const meta = strapi.db.metadata.get('api::card.card');
        let missing;
        try { strapi.db.metadata.get('api::nothing.nothing'); } catch (err) { missing = err.message; }
        ctx.body = { tableName: meta.tableName, id: meta.attributes.id, title: meta.columnToAttribute.title, has: strapi.db.metadata.has('api::person.person'), missing };
      },
      async check(ctx) {
        await validate.contentAPI.query(ctx.query, strapi.getModel('api::card.card'));
        ctx.body = { ok: true, input: strapi.sanitizers.get('content-api.input').length, output: strapi.sanitizers.has('content-api.output') };
      },
    };
  `,
  'src/api/card/routes/card.js': `module.exports = { routes: [
    { method: 'GET', path: '/cards/list', handler: 'card.list' },
    { method: 'GET', path: '/cards/check', handler: 'card.check' },
    { method: 'GET', path: '/cards/page', handler: 'card.page' },
    { method: 'GET', path: '/cards/meta', handler: 'card.meta' },
  ] };`,
  'src/index.js': `module.exports = {
    register({ strapi }) {
      // add on a path never set is lost, as in Strapi 4.26; set, then add, is kept
      strapi.sanitizers.add('content-api.input', () => (entry) => entry);
      strapi.sanitizers.set('content-api.output', []);
      strapi.sanitizers.add('content-api.output', () => async (entry) => ({ ...entry, stamped: true }));
    },
    async bootstrap({ strapi }) {
      const person = await strapi.entityService.create('api::person.person', { data: { name: 'Ada', note: 'n' } });
      await strapi.entityService.create('api::card.card', {
        data: { title: 'one', secret: 's', pin: 'p4ssword', owner: person.id, badge: { label: 'gold', hidden: 'h' } },
      });
      for (const title of ['two', 'three']) await strapi.entityService.create('api::card.card', { data: { title } });
    },
  };`,
};

describe('@strapi/utils sanitize and validate helpers called by the app', () => {
  it('sanitize.contentAPI.output drops private and password attributes at every level and runs the set sanitizers', async () => {
    const service = await createTestService({ appDir: await writeTempProject(PROJECT) });
    try {
      const { body } = await request(service.app).get('/api/cards/list').expect(200);
      expect(body.data).to.have.length(3);
      const [card] = body.data;
      expect(card).to.include({ title: 'one', stamped: true });
      expect(card).to.not.have.any.keys('secret', 'pin');
      expect(card.owner).to.include({ name: 'Ada' }).and.not.have.property('note');
      expect(card.badge).to.include({ label: 'gold' }).and.not.have.property('hidden');
      const { body: registries } = await request(service.app).get('/api/cards/check').expect(200);
      expect(registries).to.deep.equal({ ok: true, input: 0, output: true });
    } finally {
      await service.close();
    }
  });

  // their traversals look a key that is no attribute (id) up in strapi.db.metadata's columnToAttribute
  it('validate and sanitize.contentAPI.query take id in sort and filters', async () => {
    const service = await createTestService({ appDir: await writeTempProject(PROJECT) });
    try {
      const { body } = await request(service.app)
        .get('/api/cards/page?sort=id:desc&filters[id][$lt]=3&pagination[page]=1&pagination[pageSize]=1')
        .expect(200);
      expect(body).to.deep.equal({ data: [2], pagination: { page: 1, pageSize: 1, pageCount: 2, total: 2 } });
      const { body: meta } = await request(service.app).get('/api/cards/meta').expect(200);
      expect(meta).to.deep.equal({
        tableName: 'cards',
        id: { type: 'increments' },
        title: 'title',
        has: true,
        missing: 'Metadata for "api::nothing.nothing" not found',
      });
    } finally {
      await service.close();
    }
  });

  it('validate.contentAPI.query rejects a filter on a private attribute with a 400', async () => {
    const service = await createTestService({ appDir: await writeTempProject(PROJECT) });
    try {
      const { body } = await request(service.app).get('/api/cards/check?filters[secret][$eq]=s').expect(400);
      expect(body.error).to.include({ status: 400, name: 'ValidationError', message: 'Invalid parameter secret' });
    } finally {
      await service.close();
    }
  });
});
