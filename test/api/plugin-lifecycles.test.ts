// The database lifecycle hooks of the plugins' content-types (plugin::users-permissions.user,
// plugin::upload.file), subscribed by a project's bootstrap, around the plugins' own routes: the
// writes (users create/update/delete through /api/users, upload, file info, file delete) and the reads.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempApp } from '../helpers/temp-app.js';
import { bearer, login } from './users-permissions/helpers.js';

// the same global as content-type-lifecycles.test.ts records into
type Recorded = Record<string, unknown> & { hook: string };

declare global {
  var lifecycleEvents: Recorded[] | undefined;
}

const SUBSCRIBER = `
module.exports = {
  bootstrap({ strapi }) {
    strapi.db.lifecycles.subscribe({
      models: ['plugin::users-permissions.user', 'plugin::upload.file'],
      ...Object.fromEntries(
        ['Create', 'Update', 'Delete', 'FindOne', 'FindMany'].flatMap((action) => [
          ['before' + action, (event) => record(event)],
          ['after' + action, (event) => record(event)],
        ]),
      ),
    });
    // a count hook may narrow GET /api/users/count (the query string is its where)
    strapi.db.lifecycles.subscribe({
      models: ['plugin::users-permissions.user'],
      beforeCount(event) {
        record(event);
        // the app's where may name private attributes
        event.params.where = { ...event.params.where, username: 'admin', resetPasswordToken: null };
      },
      afterCount: (event) => record(event),
    });
    // a hook may add a field to a user read by GET /api/users/:id
    strapi.db.lifecycles.subscribe({
      models: ['plugin::users-permissions.user'],
      afterFindOne(event) {
        if (event.result) event.result.badge = 'member';
      },
    });
  },
};
function record(event) {
  globalThis.lifecycleEvents = globalThis.lifecycleEvents || [];
  const result =
    event.result && typeof event.result === 'object' && !Array.isArray(event.result) ? { id: event.result.id } : event.result;
  globalThis.lifecycleEvents.push({ hook: event.action, model: event.model.uid, where: event.params.where, result });
}
`;

describe('lifecycle hooks of the plugins’ content-types', function () {
  this.timeout(30_000);
  let service: TestService;
  let uploads: string;
  let jwt: string;
  const api = () => request(service.app);
  /** uploads one text file as the admin; its id */
  const uploadText = async (name: string, text: string): Promise<number> => {
    const uploaded = await api()
      .post('/api/upload')
      .set(bearer(jwt))
      .attach('files', Buffer.from(text), name)
      .expect(200);
    return uploaded.body[0].id as number;
  };
  const stored = (name: string) => service.context.connection.collection<{ _id: number }>(name);
  const events = (action?: string) =>
    (globalThis.lifecycleEvents ?? []).filter((e) => !e.hook.includes('Find') && (!action || e.hook === action));

  before(async () => {
    uploads = await mkdtemp(join(tmpdir(), 'cs-uploads-'));
    const dir = await writeTempApp({
      config: {
        plugins: {
          i18n: { enabled: false },
          'users-permissions': { config: { jwtSecret: 'plugin-hooks-secret', ratelimit: { enabled: false } } },
          upload: { config: { providerOptions: { directory: uploads } } },
        },
        permissions: {
          authenticated: [
            'plugin::users-permissions.user.create',
            'plugin::users-permissions.user.update',
            'plugin::users-permissions.user.destroy',
            'plugin::users-permissions.user.findOne',
            'plugin::users-permissions.user.count',
            'plugin::upload.content-api.upload',
            'plugin::upload.content-api.destroy',
            'plugin::upload.content-api.find',
            'plugin::upload.content-api.findOne',
          ],
        },
      },
      files: { 'src/index.js': SUBSCRIBER },
    });
    service = await createTestService({ appDir: dir });
    await api()
      .post('/api/auth/local/register')
      .send({ username: 'admin', email: 'admin@example.com', password: 'Password123!' })
      .expect(200);
    jwt = await login(service.app, 'admin', 'Password123!');
  });
  after(async () => {
    await service.close();
    await rm(uploads, { recursive: true, force: true });
    delete globalThis.lifecycleEvents;
  });
  beforeEach(() => {
    globalThis.lifecycleEvents = [];
  });

  it('users created, updated and deleted through /api/users run their hooks; the delete sees the id as the path gives it', async () => {
    const created = await api()
      .post('/api/users')
      .set(bearer(jwt))
      .send({ username: 'temp', email: 'temp@example.com', password: 'Password123!', role: 1 })
      .expect(201);
    const id = created.body.id as number;
    await api().put(`/api/users/${id}`).set(bearer(jwt)).send({ username: 'temp2' }).expect(200);
    const removed = await api().delete(`/api/users/${id}`).set(bearer(jwt)).expect(200);
    expect(removed.body).to.include({ id, username: 'temp2' });
    expect(events().map((e) => e.hook)).to.deep.equal([
      'beforeCreate',
      'afterCreate',
      'beforeUpdate',
      'afterUpdate',
      'beforeDelete',
      'afterDelete',
    ]);
    expect(events('beforeDelete')).to.deep.equal([
      { hook: 'beforeDelete', model: 'plugin::users-permissions.user', where: { id: String(id) }, result: undefined },
    ]);
    expect(events('afterDelete')[0]?.result).to.deep.equal({ id });
    expect(await stored('up_users').countDocuments({ _id: id })).to.equal(0);
  });

  it('GET /api/users/:id runs the user findOne hooks: an after-hook adds a field', async () => {
    const me = await api().get('/api/users/1').set(bearer(jwt)).expect(200);
    expect(me.body).to.include({ id: 1, username: 'admin', badge: 'member' });
    expect((globalThis.lifecycleEvents ?? []).map((e) => e.hook)).to.deep.equal(['beforeFindOne', 'afterFindOne']);
    expect(globalThis.lifecycleEvents?.[0]?.where).to.deep.equal({ id: 1 });
  });

  it('GET /api/users/count runs the user count hooks: the query string is the where, a before-hook narrows it', async () => {
    await api()
      .post('/api/auth/local/register')
      .send({ username: 'counted', email: 'counted@example.com', password: 'Password123!' })
      .expect(200);
    expect(await stored('up_users').countDocuments({})).to.be.greaterThan(1);
    const { body } = await api().get('/api/users/count?confirmed=true').set(bearer(jwt)).expect(200);
    expect(body).to.equal(1);
    const counted = (globalThis.lifecycleEvents ?? []).filter((e) => e.hook.includes('Count'));
    expect(counted).to.deep.equal([
      { hook: 'beforeCount', model: 'plugin::users-permissions.user', where: { confirmed: 'true' }, result: undefined },
      {
        hook: 'afterCount',
        model: 'plugin::users-permissions.user',
        where: { confirmed: 'true', username: 'admin', resetPasswordToken: null },
        result: 1,
      },
    ]);
  });

  it('GET /api/upload/files and /files/:id run the file read hooks', async () => {
    const id = await uploadText('read.txt', 'read me\n');
    globalThis.lifecycleEvents = [];
    await api().get('/api/upload/files').set(bearer(jwt)).expect(200);
    await api().get(`/api/upload/files/${id}`).set(bearer(jwt)).expect(200);
    const reads = (globalThis.lifecycleEvents ?? []).filter((e) => e.model === 'plugin::upload.file');
    expect(reads.map((e) => e.hook)).to.deep.equal([
      'beforeFindMany',
      'afterFindMany',
      'beforeFindOne',
      'afterFindOne',
    ]);
    expect(reads[2]?.where).to.deep.equal({ id: String(id) });
    expect(reads[3]?.result).to.deep.equal({ id });
    await api().delete(`/api/upload/files/${id}`).set(bearer(jwt)).expect(200);
  });

  it('an upload, its file info update and DELETE /api/upload/files/:id run the file hooks', async () => {
    const id = await uploadText('notes.txt', 'some text\n');
    await api()
      .post(`/api/upload?id=${id}`)
      .set(bearer(jwt))
      .field('fileInfo', JSON.stringify({ alternativeText: 'alt' }))
      .expect(200);
    const removed = await api().delete(`/api/upload/files/${id}`).set(bearer(jwt)).expect(200);
    expect(removed.body).to.include({ id, alternativeText: 'alt' });
    expect(events().map((e) => [e.hook, e.model])).to.deep.equal(
      ['beforeCreate', 'afterCreate', 'beforeUpdate', 'afterUpdate', 'beforeDelete', 'afterDelete'].map((a) => [
        a,
        'plugin::upload.file',
      ]),
    );
    expect(events('beforeDelete')[0]?.where).to.deep.equal({ id });
    expect(events('afterDelete')[0]?.result).to.deep.equal({ id });
    expect(await stored('files').countDocuments({ _id: id })).to.equal(0);
  });
});
