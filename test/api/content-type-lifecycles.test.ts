// Strapi v4's database lifecycle hooks of a project (test/fixtures/lifecycles-project): the
// content-types' lifecycles files (CommonJS and TypeScript) and what bootstrap subscribed to
// strapi.db.lifecycles, run by REST, GraphQL and the entity service alike.
import { runningStrapi } from '../../src/lifecycle/index.js';
import { expect } from 'chai';
import request from 'supertest';
import { fileURLToPath } from 'node:url';
import { capturingLogger } from '../helpers/log-capture.js';
import { startUpError } from '../helpers/start-up-error.js';
import { createCommandCountingService, createTestService, type TestService } from '../helpers/server.js';

const LIFECYCLES_PROJECT = fileURLToPath(new URL('../fixtures/lifecycles-project', import.meta.url));

type Recorded = Record<string, unknown> & { hook: string };

declare global {
  var lifecycleEvents: Recorded[] | undefined;
}

describe('content-type lifecycle hooks of a Strapi v4 project', () => {
  let service: TestService;
  const { logger, lines } = capturingLogger();
  const api = () => request(service.app);
  const recorded = (hook?: string) => (globalThis.lifecycleEvents ?? []).filter((e) => !hook || e.hook === hook);
  const articles = () => service.context.connection.collection<{ _id: number; title?: string }>('articles');

  before(async () => {
    service = await createTestService({ appDir: LIFECYCLES_PROJECT, logger });
  });
  after(async () => {
    await service.close();
    delete globalThis.lifecycleEvents;
  });
  beforeEach(() => {
    globalThis.lifecycleEvents = [];
  });

  it('loads the lifecycles files without a warning', () => {
    const messages = lines.map((l) => l.msg ?? '');
    expect(messages.filter((m) => m.includes('lifecycle'))).to.deep.equal([]);
  });

  it('beforeCreate sets a field that is stored and answered; afterCreate sees the entry and the state', async () => {
    const res = await api()
      .post('/api/articles')
      .send({ data: { title: 'Hello World' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.attributes).to.include({ title: 'Hello World', slug: 'hello-world' });
    const id = res.body.data.id as number;
    expect(await articles().findOne({ _id: id })).to.include({ slug: 'hello-world' });

    const [before] = recorded('beforeCreate');
    expect(before).to.deep.include({ model: 'api::article.article', action: 'beforeCreate' });
    const [after] = recorded('afterCreate');
    expect(after.model).to.equal('article');
    expect(after.result).to.include({ id, title: 'Hello World', slug: 'hello-world' });
    expect(after.state).to.deep.equal({ startedBy: 'beforeCreate' });
    expect(recorded().map((e) => e.hook)).to.deep.equal(['beforeCreate', 'every event', 'afterCreate', 'every event']);
  });

  it('beforeUpdate sees params.where and params.data; afterUpdate the updated entry and its state', async () => {
    const created = await api()
      .post('/api/articles')
      .send({ data: { title: 'Old' } });
    const id = created.body.data.id as number;
    globalThis.lifecycleEvents = [];
    const res = await api()
      .put(`/api/articles/${id}`)
      .send({ data: { title: 'New Title' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.attributes).to.include({ title: 'New Title', slug: 'new-title' });
    expect(recorded('beforeUpdate')).to.deep.equal([
      { hook: 'beforeUpdate', where: { id }, data: { title: 'New Title', slug: 'new-title' } },
    ]);
    const [after] = recorded('afterUpdate');
    expect(after.result).to.include({ id, slug: 'new-title' });
    expect(after.state).to.deep.equal({ was: id });
  });

  it('beforeDelete sees the id; afterDelete the entry as it was', async () => {
    const created = await api()
      .post('/api/articles')
      .send({ data: { title: 'Gone' } });
    const id = created.body.data.id as number;
    globalThis.lifecycleEvents = [];
    expect((await api().delete(`/api/articles/${id}`)).status).to.equal(200);
    expect(recorded('beforeDelete')).to.deep.equal([{ hook: 'beforeDelete', where: { id } }]);
    expect(recorded('afterDelete')[0]?.result).to.include({ id, title: 'Gone' });
    expect(await articles().countDocuments({ _id: id })).to.equal(0);
  });

  it("a before-hook's ApplicationError or ValidationError answers 400 with its message and writes nothing", async () => {
    const count = await articles().countDocuments();
    const res = await api()
      .post('/api/articles')
      .send({ data: { title: 'forbidden' } });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({
      data: null,
      error: {
        status: 400,
        name: 'ApplicationError',
        message: 'An article may not be called "forbidden"',
        details: { title: 'forbidden' },
      },
    });
    expect(await articles().countDocuments()).to.equal(count);
    expect(recorded('afterCreate')).to.deep.equal([]);

    const created = await api()
      .post('/api/articles')
      .send({ data: { title: 'Kept' } });
    const id = created.body.data.id as number;
    const update = await api()
      .put(`/api/articles/${id}`)
      .send({ data: { title: 'invalid' } });
    expect(update.status).to.equal(400);
    expect(update.body.error).to.include({ name: 'ValidationError', message: 'title is invalid' });
    expect(await articles().findOne({ _id: id })).to.include({ title: 'Kept' });
  });

  it('any other error of a before-hook is a 500, logged, and writes nothing', async () => {
    const count = await articles().countDocuments();
    const res = await api()
      .post('/api/articles')
      .send({ data: { title: 'crash' } });
    expect(res.status).to.equal(500);
    expect(res.body.error).to.include({ status: 500, name: 'InternalServerError' });
    expect(await articles().countDocuments()).to.equal(count);
    expect(lines.some((l) => (l.err as { message?: string } | undefined)?.message === 'the hook crashed')).to.equal(
      true,
    );
  });

  it('an after-hook that throws answers 500 as Strapi does; the write it followed is done', async () => {
    const res = await api()
      .post('/api/articles')
      .send({ data: { title: 'after-crash' } });
    expect(res.status).to.equal(500);
    expect(await articles().countDocuments({ title: 'after-crash' })).to.equal(1);
  });

  it('a TypeScript lifecycles file, a subscriber of some models and a subscriber of every event', async () => {
    const res = await api()
      .post('/api/notes')
      .send({ data: { body: 'quiet' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.attributes.body).to.equal('QUIET');
    const id = res.body.data.id as number;
    expect(recorded('notes subscriber')).to.deep.equal([
      { hook: 'notes subscriber', action: 'afterCreate', id, body: 'QUIET' },
    ]);
    expect(recorded('every event').map((e) => [e.action, e.model])).to.deep.equal([
      ['beforeCreate', 'api::note.note'],
      ['afterCreate', 'api::note.note'],
    ]);
    // the notes subscriber hears nothing of articles
    await api()
      .post('/api/articles')
      .send({ data: { title: 'Not a note' } });
    expect(recorded('notes subscriber')).to.have.length(1);
  });

  it('a GraphQL create runs the same hooks once', async () => {
    const res = await api().post('/graphql').send({
      query: 'mutation { createArticle(data: { title: "From GraphQL" }) { data { id attributes { slug } } } }',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.createArticle.data.attributes.slug).to.equal('from-graphql');
    expect(recorded('beforeCreate')).to.have.length(1);
    expect(recorded('afterCreate')).to.have.length(1);

    const refused = await api()
      .post('/graphql')
      .send({ query: 'mutation { createArticle(data: { title: "forbidden" }) { data { id } } }' });
    expect(refused.body.errors[0].message).to.equal('An article may not be called "forbidden"');
    expect(refused.body.errors[0].extensions.code).to.equal('STRAPI_APPLICATION_ERROR');
  });

  it('the entity service and strapi.db.query run them too', async () => {
    const strapi = runningStrapi()!;
    const created = await strapi.entityService.create('api::article.article', { data: { title: 'From Code' } });
    expect(created).to.include({ slug: 'from-code' });
    const updated = await strapi.db
      .query('api::article.article')
      .update({ where: { id: created!.id }, data: { title: 'Renamed' } });
    expect(updated).to.include({ slug: 'renamed' });
    expect(
      recorded()
        .filter((e) => e.hook !== 'every event')
        .map((e) => e.hook),
    ).to.deep.equal(['beforeCreate', 'afterCreate', 'beforeUpdate', 'afterUpdate']);
  });

  it('strapi.entityService and strapi.db.query reads run the find and count hooks, which may change params and results', async () => {
    const strapi = runningStrapi()!;
    await strapi.entityService.create('api::article.article', { data: { title: 'hidden' } });
    const visible = await strapi.entityService.create('api::article.article', { data: { title: 'Shown' } });
    globalThis.lifecycleEvents = [];
    const listed = await strapi.entityService.findMany('api::article.article', { fields: ['title'] });
    const titles = (Array.isArray(listed) ? listed : []).map((a) => a.title);
    expect(titles).to.include('Shown').and.not.include('hidden');
    expect(recorded('beforeFindMany')).to.have.length(1);
    expect(recorded('afterFindMany')[0]?.count).to.equal(titles.length);
    const one = await strapi.db.query('api::article.article').findOne({ where: { id: visible!.id } });
    expect(one).to.include({ title: 'Shown', decorated: true });
    expect(await strapi.db.query('api::article.article').count({ where: { title: 'Shown' } })).to.equal(1);
    expect(recorded('beforeCount')[0]?.where).to.deep.equal({ title: 'Shown' });
  });

  describe('REST and GraphQL reads run the read hooks', () => {
    let shown: number;
    let hidden: number;
    before(async () => {
      const strapi = runningStrapi()!;
      await articles().deleteMany({});
      hidden = (await strapi.entityService.create('api::article.article', { data: { title: 'hidden' } }))!.id;
      shown = (await strapi.entityService.create('api::article.article', { data: { title: 'Shown' } }))!.id;
      await strapi.entityService.create('api::article.article', { data: { title: 'Also shown' } });
    });

    it('GET /api/articles: beforeFindMany narrows the page, beforeCount the total; afterFindMany adds a field', async () => {
      const res = await api().get('/api/articles?fields[0]=title&sort=title:desc').expect(200);
      expect(res.body.data).to.deep.equal([
        { id: shown, attributes: { title: 'Shown', listed: true } },
        { id: shown + 1, attributes: { title: 'Also shown', listed: true } },
      ]);
      expect(res.body.meta.pagination).to.deep.equal({ page: 1, pageSize: 25, pageCount: 1, total: 2 });
      // Strapi's order and params: findMany (query engine words), then the count with the page asked
      expect(recorded().filter((e) => e.hook !== 'every event')).to.deep.equal([
        {
          hook: 'beforeFindMany',
          params: { select: ['id', 'title'], orderBy: [{ title: 'desc' }], offset: 0, limit: 25 },
        },
        { hook: 'afterFindMany', count: 2 },
        {
          hook: 'beforeCount',
          where: undefined,
          params: { select: ['id', 'title'], orderBy: [{ title: 'desc' }], page: 1, pageSize: 25 },
        },
        { hook: 'afterCount', result: 2 },
      ]);
    });

    it('the hooks see the request filters as where; a filtered-out entry stays out, and no total means no count', async () => {
      const res = await api().get('/api/articles?filters[title][$eq]=hidden&pagination[withCount]=false').expect(200);
      expect(res.body).to.deep.equal({ data: [], meta: { pagination: { page: 1, pageSize: 25 } } });
      expect(recorded('beforeFindMany')[0]?.params).to.deep.include({ where: { title: { $eq: 'hidden' } } });
      expect(recorded('beforeCount')).to.deep.equal([]);
    });

    it('GET /api/articles/:id: beforeFindOne may hide the entry (404), afterFindOne adds a field', async () => {
      const one = await api().get(`/api/articles/${shown}`).expect(200);
      expect(one.body.data.attributes).to.include({ title: 'Shown', decorated: true });
      expect(recorded('beforeFindOne')).to.deep.equal([
        { hook: 'beforeFindOne', params: { where: { id: String(shown) } } },
      ]);
      const gone = await api().get(`/api/articles/${hidden}`).expect(404);
      expect(gone.body.error).to.include({ status: 404, name: 'NotFoundError' });
    });

    it('GraphQL lists, totals and single entries run them the same way', async () => {
      const res = await api()
        .post('/graphql')
        .send({
          query: `{ articles(sort: "title") { data { id attributes { title } } meta { pagination { total } } }
                    article(id: ${hidden}) { data { id } } }`,
        });
      expect(res.body.errors).to.equal(undefined);
      expect(
        res.body.data.articles.data.map((a: { attributes: { title: string } }) => a.attributes.title),
      ).to.deep.equal(['Also shown', 'Shown']);
      expect(res.body.data.articles.meta.pagination.total).to.equal(2);
      expect(res.body.data.article.data).to.equal(null);
      expect(recorded('beforeFindMany')).to.have.length(1);
      expect(recorded('beforeCount')).to.have.length(1);
    });

    it("a related entry's populate runs no hooks of its model; another model's reads run none of the article's", async () => {
      const note = await api()
        .post('/api/notes')
        .send({ data: { body: 'about', article: hidden } })
        .expect(200);
      globalThis.lifecycleEvents = [];
      const res = await api().get(`/api/notes/${note.body.data.id}?populate=article`).expect(200);
      expect(res.body.data.attributes.article.data.attributes).to.deep.include({ title: 'hidden' });
      expect(res.body.data.attributes.article.data.attributes).not.to.have.property('decorated');
      await api().get('/api/notes').expect(200);
      expect(recorded().map((e) => [e.hook, e.action, e.model])).to.deep.equal([
        ['every event', 'beforeFindOne', 'api::note.note'],
        ['every event', 'afterFindOne', 'api::note.note'],
        ['every event', 'beforeFindMany', 'api::note.note'],
        ['every event', 'afterFindMany', 'api::note.note'],
        ['every event', 'beforeCount', 'api::note.note'],
        ['every event', 'afterCount', 'api::note.note'],
      ]);
    });

    it("a before-hook's where may filter on what the caller may not read; the answer stays within the caller's permissions", async () => {
      const strapi = runningStrapi()!;
      const owner = await api()
        .post('/api/auth/local/register')
        .send({ username: 'note-owner', email: 'note-owner@example.com', password: 'Password123!' })
        .expect(200);
      const mine = await strapi.entityService.create('api::note.note', {
        data: { body: 'kept', owner: owner.body.user.id },
      });
      await strapi.entityService.create('api::note.note', { data: { body: 'not mine' } });
      // the public may not filter on users itself
      await api().get('/api/notes?filters[owner][username]=note-owner').expect(400);
      const res = await api().get('/api/notes?filters[body]=MINE&populate=owner').expect(200);
      expect(res.body.data.map((n: { id: number }) => n.id)).to.deep.equal([mine!.id]);
      expect(res.body.data[0].attributes).not.to.have.property('owner');
    });

    it('a single type: findOne hooks with its filters as where; afterFindOne adds a field', async () => {
      await api()
        .put('/api/homepage')
        .send({ data: { title: 'The Site' } })
        .expect(200);
      globalThis.lifecycleEvents = [];
      const res = await api().get('/api/homepage').expect(200);
      expect(res.body.data.attributes).to.include({ title: 'The Site', greeting: 'Welcome to The Site' });
      expect(recorded('homepage beforeFindOne')).to.deep.equal([{ hook: 'homepage beforeFindOne', params: {} }]);
      await api().get('/api/homepage?filters[title]=Other').expect(404);
      expect(recorded('homepage beforeFindOne')[1]?.params).to.deep.equal({ where: { title: 'Other' } });
    });
  });

  it('db.query().deleteMany runs beforeDeleteMany/afterDeleteMany once and no per-entry hooks, as Strapi', async () => {
    const strapi = runningStrapi()!;
    await strapi.entityService.create('api::article.article', { data: { title: 'Bulk' } });
    await strapi.entityService.create('api::article.article', { data: { title: 'Bulk' } });
    globalThis.lifecycleEvents = [];
    const result = await strapi.db.query('api::article.article').deleteMany({ where: { title: 'Bulk' } });
    expect(result).to.deep.equal({ count: 2 });
    expect(
      recorded()
        .filter((e) => e.hook !== 'every event')
        .map((e) => e.hook),
    ).to.deep.equal(['beforeDeleteMany', 'afterDeleteMany']);
    expect(recorded('beforeDeleteMany')[0]?.where).to.deep.equal({ title: 'Bulk' });
    expect(recorded('afterDeleteMany')[0]?.result).to.deep.equal({ count: 2 });
    expect(await articles().countDocuments({ title: 'Bulk' })).to.equal(0);
  });

  it('reads with hooks cost the commands of reads without: one for the page (populate included), one for the total, one for an entry', async () => {
    const previous = globalThis.strapi;
    const counting = await createCommandCountingService({ appDir: LIFECYCLES_PROJECT });
    try {
      const strapi = runningStrapi()!;
      const article = await strapi.entityService.create('api::article.article', { data: { title: 'Counted' } });
      for (let i = 0; i < 5; i++)
        await strapi.entityService.create('api::note.note', { data: { body: `n${i}`, article: article!.id } });
      counting.commands.length = 0;
      const app = () => request(counting.service.app);
      const notes = await app().get('/api/notes?populate=article').expect(200);
      expect(notes.body.data).to.have.length(5);
      expect(counting.commands).to.deep.equal(['aggregate', 'aggregate']);
      counting.commands.length = 0;
      await app().get('/api/articles').expect(200);
      expect(counting.commands).to.deep.equal(['aggregate', 'aggregate']);
      counting.commands.length = 0;
      await app().get(`/api/articles/${article!.id}`).expect(200);
      expect(counting.commands).to.deep.equal(['aggregate']);
    } finally {
      await counting.service.close();
      // the other tests use the first service's strapi object
      globalThis.strapi = previous;
    }
  });
});

describe('a lifecycles file in Strapi v3 form', () => {
  it('stops start-up naming the file and the v4 form, as Strapi v4 refuses it too (met in Dipaky28/cssoch-strapi-v4)', async () => {
    const message = await startUpError({
      'src/api/note/content-types/note/lifecycles.js': 'module.exports = { lifecycles: { beforeCreate(data) {} } };',
    });
    expect(message).to.equal(
      'src/api/note/content-types/note/lifecycles.js (key "lifecycles"): is Strapi v3\'s way to declare the hooks, which ' +
        'Strapi v4 refuses too ("Content Type Definition is invalid"); export them at the top level, taking an event: ' +
        'module.exports = { beforeCreate(event) { ... } }',
    );
  });
});
