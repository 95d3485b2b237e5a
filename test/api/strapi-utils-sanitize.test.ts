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
  'config/permissions.json': JSON.stringify({ public: ['api::card.card.list', 'api::card.card.check'] }),
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
      async check(ctx) {
        await validate.contentAPI.query(ctx.query, strapi.getModel('api::card.card'));
        ctx.body = { ok: true, input: strapi.sanitizers.get('content-api.input').length, output: strapi.sanitizers.has('content-api.output') };
      },
    };
  `,
  'src/api/card/routes/card.js': `module.exports = { routes: [
    { method: 'GET', path: '/cards/list', handler: 'card.list' },
    { method: 'GET', path: '/cards/check', handler: 'card.check' },
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
    },
  };`,
};

describe('@strapi/utils sanitize and validate helpers called by the app', () => {
  it('sanitize.contentAPI.output drops private and password attributes at every level and runs the set sanitizers', async () => {
    const service = await createTestService({ appDir: await writeTempProject(PROJECT) });
    try {
      const { body } = await request(service.app).get('/api/cards/list').expect(200);
      expect(body.data).to.have.length(1);
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
