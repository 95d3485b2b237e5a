// Strapi v4's webhooks on a project (test/fixtures/webhooks-project): the admin API behind a
// full-access API token, the events of REST and GraphQL writes, of publishing and of uploads posted
// to a receiver on 127.0.0.1, the project's lifecycle running an admin-made webhook itself, and
// receivers that fail or hang costing the client nothing.
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import request from 'supertest';
import { runningStrapi } from '../../src/lifecycle/index.js';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { capturingLogger } from '../helpers/log-capture.js';
import { createTestService, freshDatabaseUri, type TestService } from '../helpers/server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { bearer } from './users-permissions/helpers.js';

const WEBHOOKS_PROJECT = fileURLToPath(new URL('../fixtures/webhooks-project', import.meta.url));
const ERROR = 50;

describe('webhooks (Strapi v4 webhookStore, webhookRunner, eventHub and /admin/webhooks)', () => {
  let service: TestService;
  let receiver: WebhookReceiver;
  let admin: Record<string, string>;
  let appDir: string;
  let databaseUri: string;
  const { logger, lines } = capturingLogger();
  const api = () => request(service.app);
  const hooks = () => api().get('/admin/webhooks').set(admin);
  const makeWebhook = async (body: Record<string, unknown>) => {
    const res = await api().post('/admin/webhooks').set(admin).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data as { id: number; name: string; isEnabled: boolean };
  };
  const clearWebhooks = async () => {
    const { body } = await hooks();
    const ids = (body.data as Array<{ id: number }>).map((w) => w.id);
    if (ids.length > 0) await api().post('/admin/webhooks/batch-delete').set(admin).send({ ids }).expect(200);
  };

  before(async () => {
    receiver = await startWebhookReceiver({
      '/fail': { status: 500, body: 'receiver broke' },
      '/slow': { delayMs: 1_500 },
      '/hang': { hang: true },
    });
    // a copy, so the upload provider writes outside the repository
    databaseUri = freshDatabaseUri();
    appDir = await mkdtemp(join(tmpdir(), 'cs-webhooks-'));
    await cp(WEBHOOKS_PROJECT, appDir, { recursive: true });
    process.env.AUDIT_WEBHOOK_URL = receiver.url('/audit');
    service = await createTestService({ appDir, logger }, databaseUri);
    delete process.env.AUDIT_WEBHOOK_URL;
    const token = await createApiToken(service.context, { name: 'webhooks admin', type: 'full-access' });
    admin = bearer(token.accessKey);
  });
  after(async () => {
    await service.close();
    await receiver.close();
  });

  describe('the admin API', () => {
    it('needs a full-access API token: none is a 401, a read-only token a 403', async () => {
      const anonymous = await api().get('/admin/webhooks');
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body).to.deep.equal({
        data: null,
        error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} },
      });
      const readOnly = await createApiToken(service.context, { name: 'reader', type: 'read-only' });
      const refused = await api().post('/admin/webhooks').set(bearer(readOnly.accessKey)).send({});
      expect(refused.status).to.equal(403);
      expect(refused.body.error.name).to.equal('ForbiddenError');
      expect((await api().get('/admin/webhooks').set(bearer('not-a-token'))).status).to.equal(401);
    });

    it('lists the webhook the project made in bootstrap through strapi.webhookStore', async () => {
      const res = await hooks().expect(200);
      expect(res.body.data).to.deep.equal([
        {
          id: 1,
          name: 'audit',
          url: receiver.url('/audit'),
          headers: { Authorization: 'Bearer audit-secret' },
          events: ['entry.delete'],
          isEnabled: true,
        },
      ]);
    });

    it('refuses bad input with Strapi validation errors and stores nothing', async () => {
      const before = (await hooks()).body.data;
      const empty = await api().post('/admin/webhooks').set(admin).send({});
      expect(empty.status).to.equal(400);
      expect(empty.body.error).to.deep.equal({
        status: 400,
        name: 'ValidationError',
        message: '4 errors occurred',
        details: {
          errors: [
            { path: ['name'], message: 'name is a required field', name: 'ValidationError' },
            { path: ['url'], message: 'url is a required field', name: 'ValidationError' },
            { path: ['headers'], message: 'headers is a required field', name: 'ValidationError' },
            { path: ['events'], message: 'events is a required field', name: 'ValidationError' },
          ],
        },
      });
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ name: 'a', url: 'not a url', headers: {}, events: [] }, 'url must be a valid URL'],
        [{ name: 'a', url: 'ftp://example.com/x', headers: {}, events: [] }, 'url must be a valid URL'],
        [
          { name: 'a', url: 'https://example.com', headers: { 'X-N': 1 }, events: [] },
          'headers.X-N must be a `string` type, but the final value was: `1`.',
        ],
        [
          { name: 'a', url: 'https://example.com', headers: { 'bad name': 'x' }, events: [] },
          'headers.bad name is not a valid header name',
        ],
        [
          { name: 'a', url: 'https://example.com', headers: {}, events: 'entry.create' },
          'events must be a `array` type, but the final value was: `"entry.create"`.',
        ],
        [
          { name: 'a', url: 'https://example.com', headers: {}, events: [], isEnabled: false },
          'this field has unspecified keys: isEnabled',
        ],
        [
          { name: 'a', url: 'https://example.com', headers: {}, events: ['entry.create', 'entry.explode'] },
          'Webhook event entry.explode is not supported',
        ],
      ];
      for (const [body, message] of cases) {
        const res = await api().post('/admin/webhooks').set(admin).send(body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.name).to.equal('ValidationError');
        expect(res.body.error.message, JSON.stringify(body)).to.equal(message);
      }
      expect((await hooks()).body.data).to.deep.equal(before);
    });

    it('creates, reads, updates, triggers and deletes a webhook as Strapi answers', async () => {
      const created = await makeWebhook({
        name: 'crud',
        url: receiver.url('/crud'),
        headers: { 'X-Token': 't' },
        events: ['entry.update'],
      });
      expect(created).to.deep.include({ name: 'crud', isEnabled: true });
      const one = await api().get(`/admin/webhooks/${created.id}`).set(admin).expect(200);
      expect(one.body.data).to.deep.equal(created);

      const updated = await api()
        .put(`/admin/webhooks/${created.id}`)
        .set(admin)
        .send({ name: 'crud 2', url: receiver.url('/crud'), headers: {}, events: ['entry.create'], isEnabled: false });
      expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
      expect(updated.body.data).to.deep.equal({
        id: created.id,
        name: 'crud 2',
        url: receiver.url('/crud'),
        headers: {},
        events: ['entry.create'],
        isEnabled: false,
      });

      const triggered = await api().post(`/admin/webhooks/${created.id}/trigger`).set(admin).expect(200);
      expect(triggered.body).to.deep.equal({ data: { statusCode: 200 } });
      const [call] = await receiver.waitFor('/crud', 'trigger-test');
      expect(call?.headers['x-strapi-event']).to.equal('trigger-test');

      const deleted = await api().delete(`/admin/webhooks/${created.id}`).set(admin).expect(200);
      expect(deleted.body.data.name).to.equal('crud 2');
      for (const path of [`/admin/webhooks/${created.id}`, '/admin/webhooks/abc']) {
        const missing = await api().get(path).set(admin);
        expect(missing.status).to.equal(404);
        expect(missing.body.error).to.deep.equal({
          status: 404,
          name: 'NotFoundError',
          message: 'webhook.notFound',
          details: {},
        });
      }
      expect((await api().delete(`/admin/webhooks/${created.id}`).set(admin)).status).to.equal(404);
    });

    it('batch-deletes by ids, and refuses anything but a list of ids', async () => {
      const a = await makeWebhook({ name: 'a', url: receiver.url('/a'), headers: {}, events: [] });
      const b = await makeWebhook({ name: 'b', url: receiver.url('/b'), headers: {}, events: [] });
      const bad = await api().post('/admin/webhooks/batch-delete').set(admin).send({ ids: [] });
      expect(bad.status).to.equal(400);
      expect(bad.body.error).to.include({ name: 'BadRequestError', message: 'ids must be an array of id' });
      const res = await api()
        .post('/admin/webhooks/batch-delete')
        .set(admin)
        .send({ ids: [a.id, b.id, 999] });
      expect(res.body).to.deep.equal({ data: [a.id, b.id, 999] });
      const names = (await hooks()).body.data.map((w: { name: string }) => w.name);
      expect(names).to.not.include.members(['a', 'b']);
    });
  });

  describe('events of the writes', () => {
    beforeEach(async () => {
      await clearWebhooks();
      receiver.calls.length = 0;
    });

    it('posts entry.create (and entry.publish) of a REST create with Strapi payload and headers, private attributes left out', async () => {
      await makeWebhook({
        name: 'site',
        url: receiver.url('/site'),
        headers: { Authorization: 'Bearer site-secret' },
        events: ['entry.create', 'entry.publish'],
      });
      const res = await api()
        .post('/api/articles')
        .send({ data: { title: 'Hello', reviewerNote: 'internal' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const id = res.body.data.id as number;

      const [created] = await receiver.waitFor('/site', 'entry.create');
      expect(created?.headers).to.include({
        'content-type': 'application/json',
        'x-strapi-event': 'entry.create',
        authorization: 'Bearer site-secret',
        'x-sent-by': 'webhooks-project',
      });
      expect(created?.body).to.have.keys(['event', 'createdAt', 'model', 'uid', 'entry']);
      expect(created?.body).to.include({ event: 'entry.create', model: 'article', uid: 'api::article.article' });
      expect(Date.parse(String(created?.body.createdAt))).to.be.closeTo(Date.now(), 10_000);
      const entry = created?.body.entry as Record<string, unknown>;
      expect(entry).to.include({ id, title: 'Hello' });
      expect(entry).to.have.keys(['id', 'title', 'createdAt', 'updatedAt', 'publishedAt']);

      // Strapi's content manager sends publish events without the uid
      const [published] = await receiver.waitFor('/site', 'entry.publish');
      expect(published?.body).to.have.keys(['event', 'createdAt', 'model', 'entry']);
      expect(published?.body.entry).to.include({ id, title: 'Hello' });
    });

    it('carries the relations the write populated, flat as the entity service gives them', async () => {
      await makeWebhook({ name: 'site', url: receiver.url('/site'), headers: {}, events: ['entry.create'] });
      const category = await api()
        .post('/api/categories')
        .send({ data: { name: 'News' } })
        .expect(200);
      const res = await api()
        .post('/api/articles?populate=category')
        .send({ data: { title: 'Related', category: category.body.data.id } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const calls = await receiver.waitFor('/site', 'entry.create', 2);
      const article = calls.find((call) => call.body.model === 'article');
      expect(article?.body.entry).to.deep.include({ title: 'Related' });
      expect((article?.body.entry as { category: unknown }).category).to.include({
        id: category.body.data.id,
        name: 'News',
      });
    });

    it('posts entry.update, entry.unpublish and entry.publish of REST updates, entry.delete of a delete', async () => {
      await makeWebhook({
        name: 'all',
        url: receiver.url('/all'),
        headers: {},
        events: ['entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish'],
      });
      const created = await api()
        .post('/api/articles')
        .send({ data: { title: 'Draft me' } })
        .expect(200);
      const id = created.body.data.id as number;
      await api()
        .put(`/api/articles/${id}`)
        .send({ data: { publishedAt: null } })
        .expect(200);
      await api()
        .put(`/api/articles/${id}`)
        .send({ data: { title: 'Edited' } })
        .expect(200);
      await api()
        .put(`/api/articles/${id}`)
        .send({ data: { publishedAt: new Date().toISOString() } })
        .expect(200);
      await api().delete(`/api/articles/${id}`).expect(200);
      await service.webhooks.idle();
      // delivered concurrently: the order of arrival is not the order of the writes
      const events = receiver.callsTo('/all').map((call) => call.body.event);
      expect(events).to.have.members([
        'entry.publish',
        'entry.update',
        'entry.unpublish',
        'entry.update',
        'entry.update',
        'entry.publish',
        'entry.delete',
      ]);
      expect(events).to.have.length(7);
      const deleted = receiver.callsTo('/all', 'entry.delete')[0];
      expect(deleted?.body.entry).to.include({ id, title: 'Edited' });
      const unpublished = receiver.callsTo('/all', 'entry.unpublish')[0];
      expect(unpublished?.body.entry).to.include({ id, publishedAt: null });
    });

    it('posts entry.create, entry.update and entry.delete of a single type', async () => {
      await makeWebhook({
        name: 'single',
        url: receiver.url('/single'),
        headers: {},
        events: ['entry.create', 'entry.update', 'entry.delete', 'entry.publish'],
      });
      await api()
        .put('/api/homepage')
        .send({ data: { headline: 'First' } })
        .expect(200);
      await api()
        .put('/api/homepage')
        .send({ data: { headline: 'Second' } })
        .expect(200);
      await api().delete('/api/homepage').expect(200);
      await service.webhooks.idle();
      const calls = receiver.callsTo('/single');
      expect(calls.map((call) => call.body.event)).to.have.members(['entry.create', 'entry.update', 'entry.delete']);
      expect(
        calls.every((call) => call.body.model === 'homepage' && call.body.uid === 'api::homepage.homepage'),
      ).to.equal(true);
      expect(receiver.callsTo('/single', 'entry.update')[0]?.body.entry).to.include({ headline: 'Second' });
    });

    it('posts the events of GraphQL mutations', async () => {
      await makeWebhook({
        name: 'gql',
        url: receiver.url('/gql'),
        headers: {},
        events: ['entry.create', 'entry.update'],
      });
      const create = await api()
        .post('/graphql')
        .send({ query: 'mutation { createArticle(data: { title: "From GraphQL" }) { data { id } } }' });
      expect(create.status, JSON.stringify(create.body)).to.equal(200);
      const id = Number(create.body.data.createArticle.data.id);
      const update = await api()
        .post('/graphql')
        .send({ query: `mutation { updateArticle(id: ${id}, data: { title: "Renamed" }) { data { id } } }` });
      expect(update.body.errors).to.equal(undefined);
      const [created] = await receiver.waitFor('/gql', 'entry.create');
      expect(created?.body.entry).to.include({ id, title: 'From GraphQL' });
      const [updated] = await receiver.waitFor('/gql', 'entry.update');
      expect(updated?.body.entry).to.include({ id, title: 'Renamed' });
    });

    it('does not call a disabled webhook, nor one not listening to the event', async () => {
      const off = await makeWebhook({ name: 'off', url: receiver.url('/off'), headers: {}, events: ['entry.create'] });
      await api()
        .put(`/admin/webhooks/${off.id}`)
        .set(admin)
        .send({ name: 'off', url: receiver.url('/off'), headers: {}, events: ['entry.create'], isEnabled: false })
        .expect(200);
      await makeWebhook({ name: 'deletes', url: receiver.url('/deletes'), headers: {}, events: ['entry.delete'] });
      await makeWebhook({ name: 'on', url: receiver.url('/on'), headers: {}, events: ['entry.create'] });
      await api()
        .post('/api/articles')
        .send({ data: { title: 'Quiet' } })
        .expect(200);
      await receiver.waitFor('/on', 'entry.create');
      await service.webhooks.idle();
      expect(receiver.callsTo('/off')).to.deep.equal([]);
      expect(receiver.callsTo('/deletes')).to.deep.equal([]);
    });

    it('answers the client at once while a receiver fails or hangs; the failure is logged with the name', async () => {
      await makeWebhook({ name: 'broken receiver', url: receiver.url('/fail'), headers: {}, events: ['entry.create'] });
      await makeWebhook({ name: 'slow receiver', url: receiver.url('/slow'), headers: {}, events: ['entry.create'] });
      await makeWebhook({
        name: 'hanging receiver',
        url: receiver.url('/hang'),
        headers: {},
        events: ['entry.create'],
      });
      const res = await api()
        .post('/api/articles')
        .send({ data: { title: 'Fast answer' } });
      expect(res.status).to.equal(200);
      await receiver.waitFor('/fail', 'entry.create');
      await receiver.waitFor('/hang', 'entry.create');
      // answered before the hanging call ended: its connection is still held (the runner gives up after 10 s)
      expect(receiver.heldOpen('/hang')).to.equal(1);
      const logged = () => lines.filter((l) => l.level === ERROR && String(l.msg).includes('broken receiver'));
      for (const until = Date.now() + 10_000; logged().length === 0 && Date.now() < until;)
        await new Promise((r) => setTimeout(r, 20));
      expect(logged()[0]?.msg).to.equal(
        `webhook "broken receiver" (id ${(logged()[0]?.webhook as { id: number }).id}) failed for entry.create: 500 receiver broke`,
      );
      expect(String(logged()[0]?.msg)).to.not.include('127.0.0.1');
      // the service still answers while the hanging call waits for its timeout
      await api().get('/api/articles').expect(200);
      // the next tests wait for the deliveries to settle: the hanging one must not wait for its timeout
      receiver.releaseHung();
      await service.webhooks.idle();
    });

    it('lets app listeners hear the events, and a listener that throws is logged, not the write', async () => {
      await makeWebhook({ name: 'x', url: receiver.url('/x'), headers: {}, events: ['entry.delete'] });
      const created = await api()
        .post('/api/articles')
        .send({ data: { title: 'Heard' } })
        .expect(200);
      const id = created.body.data.id as number;
      expect(lines.map((l) => l.msg)).to.include(`event hub: article ${id} created`);
      const removed = await api().delete(`/api/articles/${id}`);
      expect(removed.status).to.equal(200);
      await receiver.waitFor('/x', 'entry.delete');
      expect(lines.some((l) => l.level === ERROR && String(l.msg).includes('a listener that breaks'))).to.equal(true);
    });

    it('posts what the app emits on strapi.eventHub itself to the webhooks listening to it', async () => {
      await makeWebhook({ name: 'own', url: receiver.url('/own'), headers: {}, events: ['entry.update'] });
      const strapi = runningStrapi();
      await strapi?.eventHub.emit('entry.update', { model: 'external', entry: { id: 7 } });
      // plugins reach the same hub through the runner (strapi-plugin-navigation does)
      expect(strapi?.webhookRunner.eventHub).to.equal(strapi?.eventHub);
      const [call] = await receiver.waitFor('/own', 'entry.update');
      expect(call?.body).to.include({ model: 'external' });
      expect(call?.body.entry).to.deep.equal({ id: 7 });
    });

    it('posts entry.create, entry.update and entry.delete of users (register, change-password, /api/users), without private fields', async () => {
      await makeWebhook({
        name: 'users',
        url: receiver.url('/users'),
        headers: {},
        events: ['entry.create', 'entry.update', 'entry.delete'],
      });
      const registered = await api()
        .post('/api/auth/local/register')
        .send({ username: 'hooked', email: 'hooked@example.org', password: 'Password123!' });
      expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
      const id = registered.body.user.id as number;
      const [created] = await receiver.waitFor('/users', 'entry.create');
      expect(created?.body).to.include({ model: 'user', uid: 'plugin::users-permissions.user' });
      const entry = created?.body.entry as Record<string, unknown>;
      expect(entry).to.include({ id, username: 'hooked', email: 'hooked@example.org' });
      expect(entry).to.not.have.any.keys('password', 'resetPasswordToken', 'confirmationToken');
      expect(entry.role).to.include({ type: 'authenticated' });
      // the auth flows' own updates, as Strapi's user service `edit` makes them
      await api()
        .post('/api/auth/change-password')
        .set(bearer(registered.body.jwt as string))
        .send({ currentPassword: 'Password123!', password: 'Password456!', passwordConfirmation: 'Password456!' })
        .expect(200);
      const [changed] = await receiver.waitFor('/users', 'entry.update');
      expect(changed?.body.entry).to.include({ id, username: 'hooked' });
      expect(changed?.body.entry).to.not.have.any.keys('password', 'resetPasswordToken', 'confirmationToken');
      await api().put(`/api/users/${id}`).set(admin).send({ username: 'hooked2' }).expect(200);
      const updated = (await receiver.waitFor('/users', 'entry.update', 2))[1];
      expect(updated?.body.entry).to.include({ id, username: 'hooked2' });
      await api().delete(`/api/users/${id}`).set(admin).expect(200);
      const [deleted] = await receiver.waitFor('/users', 'entry.delete');
      expect(deleted?.body.entry).to.include({ id, username: 'hooked2' });
    });

    it("posts the entity service's writes, not the query engine's (strapi.db.query), as Strapi", async () => {
      await makeWebhook({ name: 'code', url: receiver.url('/code'), headers: {}, events: ['entry.create'] });
      const strapi = runningStrapi();
      const made = await strapi?.entityService.create('api::article.article', { data: { title: 'By code' } });
      await strapi?.db.query('api::article.article').create({ data: { title: 'By query' } });
      const [call] = await receiver.waitFor('/code', 'entry.create');
      expect(call?.body.entry).to.include({ id: made?.id, title: 'By code', publishedAt: null });
      await service.webhooks.idle();
      expect(receiver.callsTo('/code').map((c) => (c.body.entry as { title: string }).title)).to.deep.equal([
        'By code',
      ]);
    });

    it('posts media.create, media.update and media.delete of uploads', async () => {
      await makeWebhook({
        name: 'media',
        url: receiver.url('/media'),
        headers: {},
        events: ['media.create', 'media.update', 'media.delete'],
      });
      const uploaded = await api()
        .post('/api/upload')
        .set(admin)
        .attach('files', Buffer.from('hello webhooks'), { filename: 'note.txt', contentType: 'text/plain' });
      expect(uploaded.status, JSON.stringify(uploaded.body)).to.equal(200);
      const fileId = uploaded.body[0].id as number;
      const [created] = await receiver.waitFor('/media', 'media.create');
      expect(created?.body).to.have.keys(['event', 'createdAt', 'media']);
      expect(created?.body.media).to.include({ id: fileId, name: 'note.txt' });
      await api()
        .post(`/api/upload?id=${fileId}`)
        .set(admin)
        .field('fileInfo', JSON.stringify({ alternativeText: 'A note' }))
        .expect(200);
      const [updated] = await receiver.waitFor('/media', 'media.update');
      expect(updated?.body.media).to.include({ id: fileId, alternativeText: 'A note' });
      await api().delete(`/api/upload/files/${fileId}`).set(admin).expect(200);
      const [deleted] = await receiver.waitFor('/media', 'media.delete');
      expect(deleted?.body.media).to.include({ id: fileId });
    });
  });

  describe('several instances on one database', () => {
    it('an instance posts to the webhooks another one made', async () => {
      await clearWebhooks();
      receiver.calls.length = 0;
      // one process, two services: the global `strapi` the project's code reads is the first one's again after
      const first = globalThis.strapi;
      const other = await createTestService({ appDir, logger }, databaseUri);
      try {
        await makeWebhook({ name: 'shared', url: receiver.url('/shared'), headers: {}, events: ['entry.create'] });
        await request(other.app)
          .post('/api/articles')
          .send({ data: { title: 'Elsewhere' } })
          .expect(200);
        const [call] = await receiver.waitFor('/shared', 'entry.create');
        expect(call?.body.entry).to.include({ title: 'Elsewhere' });
      } finally {
        await other.stop();
        globalThis.strapi = first;
      }
    });
  });

  describe("the project's lifecycle running an admin-made webhook (strapi.webhookStore + strapi.webhookRunner)", () => {
    it('runs "vercel webhook" with the updated entry when a published article changes', async () => {
      await clearWebhooks();
      receiver.calls.length = 0;
      await makeWebhook({ name: 'vercel webhook', url: receiver.url('/deploy'), headers: {}, events: [] });
      const created = await api()
        .post('/api/articles')
        .send({ data: { title: 'Live' } })
        .expect(200);
      const id = created.body.data.id as number;
      const res = await api()
        .put(`/api/articles/${id}`)
        .send({ data: { title: 'Live, edited' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [call] = receiver.callsTo('/deploy', 'deploy');
      expect(call?.headers['x-strapi-event']).to.equal('deploy');
      expect(call?.body).to.include({ event: 'deploy', id, title: 'Live, edited' });
      expect(lines.map((l) => l.msg)).to.include('deploy hook answered 200');
    });

    it('updates as before when the webhook is not there', async () => {
      await clearWebhooks();
      const created = await api()
        .post('/api/articles')
        .send({ data: { title: 'No hook' } })
        .expect(200);
      await api()
        .put(`/api/articles/${created.body.data.id}`)
        .send({ data: { title: 'Still no hook' } })
        .expect(200);
    });
  });
});
