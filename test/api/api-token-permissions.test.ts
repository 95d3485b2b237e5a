// API tokens as Strapi 4.26 stores them: admin::api-token with its `permissions`, one
// admin::api-token-permission per action of a custom token (`token` manyToOne). What app code and
// plugins read of them (strapi-plugin-io's token rooms populate `permissions` through the entity
// service and the query engine), strapi.service('admin::api-token')'s answers (update, regenerate,
// getBy), and tokens stored before, with an `actions` array, moved to permissions at start-up.
import { expect } from 'chai';
import request from 'supertest';
import { API_TOKEN_PERMISSION_UID, API_TOKEN_UID } from '../../src/content-types/index.js';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { collectionOf } from '../../src/plugins/users-permissions/collections.js';
import { createTestService, freshDatabaseUri, type TestService } from '../helpers/server.js';
import { collectionTypeSchema, writeTempProject } from '../helpers/temp-app.js';

const PAGE = {
  'src/api/page/content-types/page/schema.json': JSON.stringify(
    collectionTypeSchema('page', 'pages', { title: { type: 'string' } }),
  ),
};

const FILES = {
  ...PAGE,
  'src/api/page/routes/tokens.js': `module.exports = { routes: [
    { method: 'GET', path: '/token-rooms', handler: 'page.rooms', config: { auth: false } },
    { method: 'POST', path: '/token-change', handler: 'page.change', config: { auth: false } },
  ] };`,
  'src/api/page/controllers/page.js': `module.exports = require('@strapi/strapi').factories.createCoreController('api::page.page', ({ strapi }) => ({
  async rooms() {
    const tokens = strapi.service('admin::api-token');
    const { accessKey } = await strapi.store({ type: 'app', name: 'front' }).get({ key: 'token' });
    // strapi-plugin-io's token strategy: authenticate, then getRooms
    const found = await strapi.query('admin::api-token').findOne({
      where: { accessKey: tokens.hash(accessKey) },
      select: ['id', 'name', 'type', 'lastUsedAt', 'expiresAt'],
      populate: ['permissions'],
    });
    const rooms = await strapi.entityService.findMany('admin::api-token', {
      fields: ['id', 'type', 'name'],
      filters: { $or: [{ expiresAt: { $gte: new Date() } }, { expiresAt: null }] },
      populate: { permissions: true },
    });
    const byToken = await strapi.db.query('admin::api-token-permission').findMany({
      where: { token: { name: 'front-end' } },
      select: ['action'],
      populate: { token: { select: ['name'] } },
      orderBy: { action: 'asc' },
    });
    return {
      accessKey,
      found: { ...found, permissions: found.permissions.map((p) => p.action) },
      rooms: rooms.map((room) => ({ name: room.name, type: room.type, actions: room.permissions.map((p) => p.action) })),
      byToken,
      list: (await tokens.list()).map((t) => ({ name: t.name, permissions: t.permissions })),
      byName: await tokens.getByName('front-end'),
    };
  },
  async change(ctx) {
    const tokens = strapi.service('admin::api-token');
    const { id } = await tokens.getByName('front-end');
    const { op, attributes } = ctx.request.body;
    try {
      if (op === 'update') return await tokens.update(id, attributes);
      if (op === 'regenerate') return await tokens.regenerate(id);
      if (op === 'regenerate-missing') return await tokens.regenerate(9999);
      if (op === 'create') return await tokens.create(attributes);
    } catch (error) {
      ctx.status = 400;
      return { name: error.name, message: error.message };
    }
  },
}));`,
  'src/index.js': `module.exports = {
  async bootstrap({ strapi }) {
    const tokens = strapi.service('admin::api-token');
    if (await tokens.exists({ name: 'front-end' })) return;
    await tokens.create({ name: 'all', type: 'full-access' });
    const token = await tokens.create({ name: 'front-end', type: 'custom', permissions: ['api::page.page.find', 'api::page.page.find'] });
    await strapi.store({ type: 'app', name: 'front' }).set({ key: 'token', value: { accessKey: token.accessKey, created: token } });
  },
};`,
};

describe('API token permissions as Strapi stores them', () => {
  let service: TestService;
  let accessKey: string;
  const pages = (key: string) => request(service.app).get('/api/pages').set('Authorization', `Bearer ${key}`);
  const createPage = (key: string) =>
    request(service.app)
      .post('/api/pages')
      .set('Authorization', `Bearer ${key}`)
      .send({ data: { title: 'x' } });
  const change = (body: unknown) =>
    request(service.app)
      .post('/api/token-change')
      .send(body as object);

  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(FILES) });
  });
  after(() => service.close());

  it("populates a token's permissions through db.query, the entity service and the permission type", async () => {
    const { body } = await request(service.app).get('/api/token-rooms').expect(200);
    accessKey = body.accessKey as string;
    expect(body.found).to.include({ name: 'front-end', type: 'custom' });
    expect(body.found.permissions).to.deep.equal(['api::page.page.find']);
    expect(body.rooms).to.deep.equal([
      { name: 'all', type: 'full-access', actions: [] },
      { name: 'front-end', type: 'custom', actions: ['api::page.page.find'] },
    ]);
    expect(body.byToken).to.have.length(1);
    expect(body.byToken[0]).to.deep.include({
      action: 'api::page.page.find',
      token: { id: body.found.id, name: 'front-end' },
    });
    expect(body.list).to.deep.equal([
      { name: 'all', permissions: [] },
      { name: 'front-end', permissions: ['api::page.page.find'] },
    ]);
    expect(body.byName).to.include({ name: 'front-end', type: 'custom', description: '' });
    expect(body.byName).to.have.keys([
      'id',
      'name',
      'description',
      'type',
      'lastUsedAt',
      'lifespan',
      'expiresAt',
      'createdAt',
      'updatedAt',
      'permissions',
    ]);
    await pages(accessKey).expect(200);
    await createPage(accessKey).expect(403);
  });

  it('update changes the actions a token grants at once, as its permission entries', async () => {
    await pages(accessKey).expect(200);
    const updated = await change({
      op: 'update',
      attributes: { description: 'site', permissions: ['api::page.page.find', 'api::page.page.create'] },
    }).expect(200);
    expect(updated.body).to.include({ name: 'front-end', description: 'site', type: 'custom' });
    expect(updated.body.permissions).to.have.members(['api::page.page.find', 'api::page.page.create']);
    expect(updated.body).to.not.have.property('accessKey');
    await createPage(accessKey).expect(200);
    const stored = await collectionOf(service.context, API_TOKEN_PERMISSION_UID)
      .find({ token: updated.body.id as number })
      .toArray();
    expect(stored.map((p) => p.action)).to.have.members(['api::page.page.find', 'api::page.page.create']);

    // a read-only token has no permissions left
    const readOnly = await change({ op: 'update', attributes: { type: 'read-only' } }).expect(200);
    expect(readOnly.body).to.include({ type: 'read-only' }).and.deep.include({ permissions: [] });
    await createPage(accessKey).expect(403);
    await pages(accessKey).expect(200);
  });

  it("refuses what Strapi's service refuses, changing nothing", async () => {
    const cases = [
      [{ op: 'update', attributes: { type: 'custom' } }, 'Missing permissions attribute for custom token'],
      [
        { op: 'update', attributes: { permissions: ['api::page.page.find'] } },
        'Non-custom tokens should not reference permissions',
      ],
      [{ op: 'update', attributes: { lifespan: 5 } }, 'lifespan must be one of the following values'],
      [{ op: 'regenerate-missing' }, 'The provided token id does not exist'],
      [{ op: 'create', attributes: { name: 'c', type: 'custom' } }, 'Missing permissions attribute for custom token'],
    ] as const;
    for (const [body, message] of cases) {
      const answer = await change(body).expect(400);
      expect(answer.body.message, JSON.stringify(body)).to.include(message);
    }
    const { body } = await request(service.app).get('/api/token-rooms').expect(200);
    expect(body.byName).to.include({ type: 'read-only', description: 'site', lifespan: null });
    expect(body.list.map((t: { name: string }) => t.name)).to.deep.equal(['all', 'front-end']);
  });

  it('regenerate answers a new key once; the old one no longer passes', async () => {
    const { body } = await change({ op: 'regenerate' }).expect(200);
    expect(body.accessKey).to.match(/^[0-9a-f]{256}$/);
    expect(body).to.have.keys(['id', 'accessKey']);
    await pages(accessKey).expect(401);
    await pages(body.accessKey as string).expect(200);
  });
});

describe('API tokens stored with an actions array (before the permissions relation)', () => {
  it('are moved to permission entries at start-up and keep authenticating with their actions', async () => {
    const appDir = await writeTempProject(PAGE);
    const databaseUri = freshDatabaseUri();
    const first = await createTestService({ appDir }, databaseUri);
    const { id, accessKey } = await createApiToken(first.context, {
      name: 'old',
      type: 'custom',
      actions: ['api::page.page.find'],
    });
    // as the service stored it before: the actions on the token, no permission entries
    await collectionOf(first.context, API_TOKEN_UID).updateOne(
      { _id: id },
      { $set: { actions: ['api::page.page.find', 'api::page.page.create'] } },
    );
    await collectionOf(first.context, API_TOKEN_PERMISSION_UID).deleteMany({});
    await first.stop();

    const second = await createTestService({ appDir }, databaseUri);
    try {
      const token = await collectionOf(second.context, API_TOKEN_UID).findOne({ _id: id });
      expect(token).to.not.have.property('actions');
      const permissions = await collectionOf(second.context, API_TOKEN_PERMISSION_UID).find({ token: id }).toArray();
      expect(permissions.map((p) => p.action)).to.have.members(['api::page.page.find', 'api::page.page.create']);
      const auth = { Authorization: `Bearer ${accessKey}` };
      await request(second.app).get('/api/pages').set(auth).expect(200);
      await request(second.app)
        .post('/api/pages')
        .set(auth)
        .send({ data: { title: 'x' } })
        .expect(200);
      await request(second.app).delete('/api/pages/1').set(auth).expect(403);
    } finally {
      await second.close();
    }
  });
});
