// A controller that clears `ctx.state.auth` before calling the core action, as projects do to link
// the signed-in user (`data.owner = ctx.state.user.id; ctx.state.auth = false; return super.create(ctx)`).
// Strapi's core controller hands `ctx.state.auth` to its sanitizers and validators, which check the
// caller's permissions only when it is truthy: the relation to a type the caller may not read is
// then written and answered; with `auth` left alone it is dropped.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const FILES: Record<string, string> = {
  'config/permissions.json': json({
    authenticated: ['api::gig.gig.create', 'api::gig.gig.update', 'api::gig.gig.find'],
  }),
  'src/api/gig/content-types/gig/schema.json': json({
    kind: 'collectionType',
    collectionName: 'gigs',
    info: { singularName: 'gig', pluralName: 'gigs', displayName: 'Gig' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' },
      owner: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' },
    },
  }),
  'src/api/gig/controllers/gig.js': `
const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::gig.gig', () => ({
  async create(ctx) {
    ctx.request.body = { data: { ...ctx.request.body.data, owner: ctx.state.user.id } };
    ctx.state.auth = false;
    return super.create(ctx);
  },
  async update(ctx) {
    ctx.request.body = { data: { ...ctx.request.body.data, owner: ctx.state.user.id } };
    const answer = await super.update(ctx);
    return answer;
  },
}));
`,
  'src/api/gig/routes/gig.js': `
const { createCoreRouter } = require('@strapi/strapi').factories;
module.exports = createCoreRouter('api::gig.gig');
`,
};

describe('a controller clearing ctx.state.auth before the core action', () => {
  let service: TestService;
  let jwt = '';
  let userId = 0;
  const api = () => request(service.app);
  const stored = async (id: number) =>
    service.context.connection.collection<{ _id: number; owner?: number | null }>('gigs').findOne({ _id: id });

  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(FILES) });
    const res = await api()
      .post('/api/auth/local/register')
      .send({ username: 'ada', email: 'ada@example.com', password: 'Password123' })
      .expect(200);
    jwt = res.body.jwt;
    userId = res.body.user.id;
  });
  after(() => service.close());

  it('writes and answers the relation to a type the user may not read (populate honoured)', async () => {
    const res = await api()
      .post('/api/gigs?populate=owner')
      .set('authorization', `Bearer ${jwt}`)
      .send({ data: { title: 'Jazz' } })
      .expect(200);
    expect(res.body.data.attributes.title).to.equal('Jazz');
    expect(res.body.data.attributes.owner.data.id).to.equal(userId);
    expect((await stored(res.body.data.id))?.owner).to.equal(userId);
  });

  it('with ctx.state.auth left as the route set it, drops that relation as Strapi does', async () => {
    const created = await api()
      .post('/api/gigs')
      .set('authorization', `Bearer ${jwt}`)
      .send({ data: { title: 'Blues' } })
      .expect(200);
    const id = created.body.data.id;
    await service.context.connection
      .collection<{ _id: number; owner?: number | null }>('gigs')
      .updateOne({ _id: id }, { $set: { owner: null } });
    const res = await api()
      .put(`/api/gigs/${id}?populate=owner`)
      .set('authorization', `Bearer ${jwt}`)
      .send({ data: { title: 'Soul' } })
      .expect(200);
    expect(res.body.data.attributes.title).to.equal('Soul');
    expect(res.body.data.attributes).not.to.have.property('owner');
    expect((await stored(id))?.owner ?? null).to.equal(null);
  });
});
