// Strapi v4's database lifecycle hooks of a project (test/fixtures/lifecycles-project): the
// content-types' lifecycles files (CommonJS and TypeScript) and what bootstrap subscribed to
// strapi.db.lifecycles, run by REST, GraphQL and the entity service alike.
import { expect } from 'chai';
import request from 'supertest';
import { fileURLToPath } from 'node:url';
import { capturingLogger } from '../helpers/log-capture.js';
import { createTestService, type TestService } from '../helpers/server.js';

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

  it('loads the lifecycles files without the "not run" line; warns that REST and GraphQL reads run no find hooks', () => {
    const messages = lines.map((l) => l.msg ?? '');
    expect(messages.filter((m) => m.includes('lifecycle'))).to.deep.equal([
      'src/api/article/content-types/article/lifecycles.js: beforeFindMany, afterFindMany, afterFindOne, beforeCount run for strapi.entityService and strapi.db.query reads only; REST and GraphQL reads do not run them yet',
    ]);
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
    const strapi = globalThis.strapi!;
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
    const strapi = globalThis.strapi!;
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
    // REST reads do not run them (yet): the hidden entry is answered there
    const rest = await api().get('/api/articles?filters[title][$eq]=hidden').expect(200);
    expect(rest.body.data).to.have.length(1);
  });

  it('db.query().deleteMany runs beforeDeleteMany/afterDeleteMany once and no per-entry hooks, as Strapi', async () => {
    const strapi = globalThis.strapi!;
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
});
