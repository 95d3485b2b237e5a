// What an app registers in strapi.sanitizers / strapi.validators runs where Strapi 4.26's core
// controllers run it: `content-api.output` sanitizers after every core action's built-in
// sanitizeOutput, `content-api.input` sanitizers after create and update's sanitizeInput (also on
// the REST routes the app wrote no code for), `content-api.input` validators in validateInput; and
// the input sanitizers in GraphQL's create and update mutations, as Strapi 4.26's GraphQL plugin.
import { expect } from 'chai';
import request from 'supertest';
import { createPathRegistry } from '../../src/lifecycle/sanitizer-registries.js';
import { restActions } from '../../src/lifecycle/rest-actions.js';
import type { AppCode } from '../../src/lifecycle/app-controllers.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const schema = (singular: string, plural: string, attributes: Record<string, unknown>) =>
  JSON.stringify({
    kind: 'collectionType',
    collectionName: plural,
    info: { singularName: singular, pluralName: plural, displayName: singular },
    options: { draftAndPublish: false },
    attributes,
  });

const CRUD = (uid: string) => ['find', 'findOne', 'create', 'update', 'delete'].map((a) => `${uid}.${a}`);

const PROJECT = {
  'config/permissions.json': JSON.stringify({ public: [...CRUD('api::card.card'), ...CRUD('api::note.note')] }),
  'src/api/card/content-types/card/schema.json': schema('card', 'cards', {
    title: { type: 'string' },
    secret: { type: 'string', private: true },
  }),
  'src/api/note/content-types/note/schema.json': schema('note', 'notes', { text: { type: 'string' } }),
  // the note's own create validates its input, as Strapi's docs show
  'src/api/note/controllers/note.js': `const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::note.note', () => ({
  async create(ctx) {
    await this.validateInput(ctx.request.body.data, ctx);
    return super.create(ctx);
  },
}));
`,
  'src/index.js': `const { errors } = require('@strapi/utils');
module.exports = {
  bootstrap({ strapi }) {
    strapi.sanitizers.set('content-api.output', [
      (schema) => (entry) => (entry ? { ...entry, seenBy: schema.uid, keys: Object.keys(entry).sort().join(',') } : entry),
    ]);
    strapi.sanitizers.set('content-api.input', [() => (data) => ({ ...data, title: data.title && data.title.trim().toUpperCase() })]);
    strapi.validators.set('content-api.input', [
      () => async (data) => {
        if (data.text === 'spam') throw new errors.ValidationError('no spam, said the app');
      },
    ]);
  },
};
`,
};

describe('sanitizers and validators the app registered', function () {
  this.timeout(60_000);
  let service: TestService;
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(PROJECT) });
  });
  after(() => service.close());

  it('content-api.output sanitizers run after the built-in ones on every core action, on routes the app wrote no code for', async () => {
    const created = await request(service.app)
      .post('/api/cards')
      .send({ data: { title: '  first  ', secret: 's' } })
      .expect(200);
    // the input sanitizer ran on create; the output one saw the entry without its private attribute
    expect(created.body.data.attributes).to.include({
      title: 'FIRST',
      seenBy: 'api::card.card',
      keys: 'createdAt,id,title,updatedAt',
    });
    const { id } = created.body.data as { id: number };
    const list = await request(service.app).get('/api/cards').expect(200);
    expect(list.body.data).to.have.length(1);
    expect(list.body.data[0].attributes).to.include({ title: 'FIRST', seenBy: 'api::card.card' });
    expect(list.body.meta.pagination).to.include({ total: 1 });
    const one = await request(service.app).get(`/api/cards/${id}`).expect(200);
    expect(one.body.data.attributes).to.include({ seenBy: 'api::card.card' });
    const updated = await request(service.app)
      .put(`/api/cards/${id}`)
      .send({ data: { title: 'second ' } })
      .expect(200);
    expect(updated.body.data.attributes).to.include({ title: 'SECOND', seenBy: 'api::card.card' });
    await request(service.app).get('/api/cards/999999').expect(404);
    const deleted = await request(service.app).delete(`/api/cards/${id}`).expect(200);
    expect(deleted.body.data.attributes).to.include({ title: 'SECOND', seenBy: 'api::card.card' });
  });

  it("content-api.input validators run in the controller's validateInput: their refusal is the answer, nothing stored", async () => {
    const refused = await request(service.app)
      .post('/api/notes')
      .send({ data: { text: 'spam' } })
      .expect(400);
    expect(refused.body.error).to.include({ name: 'ValidationError', message: 'no spam, said the app' });
    expect((await request(service.app).get('/api/notes').expect(200)).body.data).to.deep.equal([]);
    const kept = await request(service.app)
      .post('/api/notes')
      .send({ data: { text: 'ham' } })
      .expect(200);
    expect(kept.body.data.attributes).to.include({ text: 'ham', seenBy: 'api::note.note' });
  });

  it('GraphQL: create and update mutations run the content-api.input sanitizers (no output sanitizer), as Strapi 4.26', async () => {
    const gql = async (query: string) => {
      const res = await request(service.app).post('/graphql').send({ query }).expect(200);
      expect(res.body.errors, JSON.stringify(res.body.errors)).to.equal(undefined);
      return res.body.data as Record<string, { data: { id: string; attributes: { title: string } } }>;
    };
    const created = await gql(
      'mutation { createCard(data: { title: "  graph  " }) { data { id attributes { title } } } }',
    );
    expect(created.createCard.data.attributes.title).to.equal('GRAPH');
    const { id } = created.createCard.data;
    const updated = await gql(
      `mutation { updateCard(id: ${id}, data: { title: " renamed " }) { data { attributes { title } } } }`,
    );
    expect(updated.updateCard.data.attributes.title).to.equal('RENAMED');
    const stored = await request(service.app).get(`/api/cards/${id}`).expect(200);
    expect(stored.body.data.attributes.title).to.equal('RENAMED');
  });

  it('with nothing registered, a route the app wrote no code for stays the direct operation (one look-up per request)', () => {
    const registries = { sanitizers: createPathRegistry(), validators: createPathRegistry() };
    const code = {
      customises: () => false,
      restAction: () => async () => undefined,
    } as unknown as AppCode;
    const options = { code, errors: () => undefined, logger: service.context.logger, registries };
    const actions = restActions(options, 'api::card.card');
    expect(actions?.('find')).to.equal(undefined);
    // add on a path never set is lost, as in Strapi 4.26: still direct
    registries.sanitizers.add('content-api.output', () => (entry: unknown) => entry);
    expect(actions?.('find')).to.equal(undefined);
    registries.sanitizers.set('content-api.input', [() => (data: unknown) => data]);
    expect(actions?.('find')).to.equal(undefined);
    expect(actions?.('create')).to.be.a('function');
    // an app without code has no registries: its routes ask nothing
    expect(restActions({ ...options, registries: undefined }, 'api::card.card')).to.equal(undefined);
  });
});
