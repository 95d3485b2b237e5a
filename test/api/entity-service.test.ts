import bcrypt from 'bcryptjs';
import { expect } from 'chai';
import request from 'supertest';
import { ValidationError } from '../../src/errors/index.js';
import { createDbLifecycles } from '../../src/lifecycle/db-lifecycles.js';
import { createEntityService, type QueryEntityService } from '../../src/lifecycle/entity-service.js';
import { createQueryEngine } from '../../src/lifecycle/query-engine.js';
import { createStrapiApp, type StrapiApp } from '../../src/lifecycle/strapi-app.js';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';

const PERMISSION = 'plugin::users-permissions.permission';
const USER = 'plugin::users-permissions.user';

/** strapi.entityService and strapi.db.query for an app's src/index: flat entries, no limits, drafts included. */
describe('lifecycle: strapi.entityService and strapi.db.query', () => {
  let service: TestService;
  let entities: QueryEntityService;
  let strapi: StrapiApp;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
    entities = createEntityService(service.context);
    strapi = createStrapiApp({
      config: service.context.config,
      logger: service.context.logger,
      registry: service.context.registry,
      service: service.context,
      dbLifecycles: createDbLifecycles(service.context.registry, new Map()),
      enabledPlugins: ['graphql'],
      knownPlugins: ['graphql', 'i18n'],
      pluginServices: () => ({}),
      webhooks: service.webhooks,
    });
  });
  after(() => service.close());

  it('findMany: every entry (no page size), drafts included, flat relations when populated', async () => {
    const all = (await entities.findMany('api::article.article', { fields: ['title', 'publishedAt'] })) as Array<
      Record<string, unknown>
    >;
    const { body } = await request(service.app).get('/api/articles?publicationState=preview&pagination[pageSize]=1');
    expect(all).to.have.length(body.meta.pagination.total);
    expect(all.some((a) => a.publishedAt === null)).to.equal(true);
    const [first] = (await entities.findMany('api::article.article', {
      filters: { category: { name: { $eq: 'Technology' } } },
      populate: { category: { fields: ['name'] }, tags: { fields: ['name'] } },
      fields: ['title'],
      sort: { id: 'asc' },
      limit: 1,
    })) as Array<Record<string, unknown>>;
    expect(first).to.have.keys(['id', 'title', 'category', 'tags']);
    expect(first?.category).to.deep.include({ name: 'Technology' });
    expect(first?.tags).to.be.an('array');
  });

  it('findOne, count, a single type, and start/limit', async () => {
    const one = await entities.findOne('api::tag.tag', 1, { fields: ['name'] });
    expect(one).to.deep.equal({ id: 1, name: 'JavaScript' });
    expect(await entities.findOne('api::tag.tag', 999_999)).to.equal(null);
    const count = await entities.count('api::tag.tag');
    const page = (await entities.findMany('api::tag.tag', { start: 1, limit: 2, fields: ['name'] })) as unknown[];
    expect(page).to.have.length(Math.min(2, count - 1));
    expect(await entities.count('api::tag.tag', { filters: { name: 'JavaScript' } })).to.equal(1);
    const homepage = (await entities.findMany('api::homepage.homepage')) as Record<string, unknown> | null;
    expect(homepage).to.be.an('object').that.has.property('id');
  });

  it('create (a draft unless published), update, delete; bad data throws the REST ValidationError', async () => {
    const created = await entities.create('api::article.article', {
      data: { title: 'From bootstrap', slug: 'from-bootstrap' },
    });
    expect(created).to.deep.include({ title: 'From bootstrap', publishedAt: null });
    const updated = await entities.update('api::article.article', created!.id, { data: { title: 'Renamed' } });
    expect(updated?.title).to.equal('Renamed');
    const deleted = await entities.delete('api::article.article', created!.id);
    expect(deleted?.title).to.equal('Renamed');
    expect(await entities.findOne('api::article.article', created!.id)).to.equal(null);
    let error: unknown;
    try {
      await entities.create('api::tag.tag', { data: { name: { not: 'a string' } } });
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(ValidationError);
  });

  it('delete of an entry deleted meanwhile answers null, as of one that is not there: of parallel deletes, one answers it', async () => {
    const created = await entities.create('api::article.article', { data: { title: 'Deleted in parallel' } });
    const answers = await Promise.all([1, 2, 3, 4].map(() => entities.delete('api::article.article', created!.id)));
    expect(answers.filter((a) => a !== null).map((a) => a?.title)).to.deep.equal(['Deleted in parallel']);
    expect(await entities.delete('api::article.article', created!.id)).to.equal(null);
  });

  it('db.query: where, select, orderBy, limit/offset, and writes on the first match', async () => {
    const tags = createQueryEngine(
      { entities, silent: entities, lifecycles: service.context.lifecycles },
      'api::tag.tag',
    );
    const found = await tags.findOne({ where: { name: 'JavaScript' }, select: ['name'] });
    expect(found).to.deep.equal({ id: 1, name: 'JavaScript' });
    const ordered = await tags.findMany({ select: ['name'], orderBy: { name: 'desc' }, limit: 2, offset: 0 });
    expect(ordered).to.have.length(2);
    expect(String(ordered[0]?.name) >= String(ordered[1]?.name)).to.equal(true);
    const made = await tags.create({ data: { name: 'Query engine' } });
    const changed = await tags.update({ where: { id: made!.id }, data: { weight: 2.5 } });
    expect(changed).to.deep.include({ name: 'Query engine', weight: 2.5 });
    expect(await tags.deleteMany({ where: { name: 'Query engine' } })).to.deep.equal({ count: 1 });
    expect(await tags.count({ where: { name: 'Query engine' } })).to.equal(0);
  });

  it('db.query creating a permission a role already has answers the stored one (a bootstrap granting at every start)', async () => {
    const permissions = createQueryEngine(
      { entities, silent: entities, lifecycles: service.context.lifecycles },
      'plugin::users-permissions.permission',
    );
    const data = { action: 'api::tag.tag.delete', role: 2 };
    const first = await permissions.create({ data });
    const again = await Promise.all([permissions.create({ data }), entities.create(PERMISSION, { data })]);
    expect(again.map((p) => p?.id)).to.deep.equal([first?.id, first?.id]);
    expect(again[0]).to.deep.include({ action: 'api::tag.tag.delete' });
    expect(await permissions.count({ where: { action: 'api::tag.tag.delete', role: 2 } })).to.equal(1);
    // any other refusal is still one
    const error = await permissions.create({ data: { action: 'api::tag.tag.delete', role: 999 } }).catch((e) => e);
    expect(error).to.be.instanceOf(ValidationError);
  });

  it('creating a permission a role already has inside strapi.db.transaction answers the stored one; the transaction goes on', async () => {
    const query = strapi.db.query(PERMISSION);
    const granted = { action: 'api::category.category.delete', role: 2 };
    const added = { action: 'api::category.category.update', role: 2 };
    await query.deleteMany({ where: { action: { $in: [granted.action, added.action] }, role: 2 } });
    const first = (await query.create({ data: granted })) as { id: number };
    const [again, other] = (await strapi.db.transaction(async () => [
      await query.create({ data: granted }),
      await entities.create(PERMISSION, { data: added }),
    ])) as Array<{ id: number } | null>;
    expect(again?.id).to.equal(first.id);
    expect(other?.id).to.be.a('number');
    expect(await query.count({ where: { action: granted.action, role: 2 } })).to.equal(1);
    expect(await query.count({ where: { action: added.action, role: 2 } })).to.equal(1);
  });

  it('findPage: a page of pageSize (10 by default) with its total; bad page parameters are PaginationErrors', async () => {
    const total = await entities.count('api::tag.tag');
    const ids = (
      (await entities.findMany('api::tag.tag', { sort: 'id', fields: ['id'] })) as Array<{ id: number }>
    ).map((tag) => tag.id);
    const second = await entities.findPage('api::tag.tag', { page: 2, pageSize: 2, sort: 'id', fields: ['name'] });
    expect(second.pagination).to.deep.equal({ page: 2, pageSize: 2, pageCount: Math.ceil(total / 2), total });
    expect(second.results.map((tag) => tag.id)).to.deep.equal(ids.slice(2, 4));
    expect(second.results[0]).to.have.keys(['id', 'name']);
    const first = await entities.findPage('api::tag.tag', { filters: { name: 'JavaScript' } });
    expect(first.pagination).to.deep.equal({ page: 1, pageSize: 10, pageCount: 1, total: 1 });
    const refusals = [
      [{ page: 0 }, "Invalid 'page' parameter. Expected an integer > 0, received: 0"],
      [{ page: 2, pageSize: 'x' }, "Invalid 'pageSize' parameter. Expected an integer > 0, received: 2"],
      [
        { page: 1, limit: 5 },
        'Invalid pagination attributes. You cannot use page and offset pagination in the same query',
      ],
    ] as const;
    for (const [params, message] of refusals) {
      const err = await entities.findPage('api::tag.tag', params).catch((e: unknown) => e);
      expect(err, JSON.stringify(params)).to.include({ name: 'PaginationError', message });
    }
  });

  it('db.query findPage and findWithCount: page and pageSize over where, and the entries with their count', async () => {
    const tags = createQueryEngine(
      { entities, silent: entities, lifecycles: service.context.lifecycles },
      'api::tag.tag',
    );
    const total = await tags.count();
    const page = await tags.findPage({ page: 2, pageSize: 1, orderBy: { id: 'asc' }, select: ['name'] });
    expect(page.pagination).to.deep.equal({ page: 2, pageSize: 1, pageCount: total, total });
    expect(page.results).to.have.length(1);
    expect(page.results[0]).to.deep.equal(await tags.findOne({ where: { id: 2 }, select: ['name'] }));
    const [found, count] = await tags.findWithCount({ where: { name: 'JavaScript' }, select: ['name'] });
    expect(found).to.deep.equal([{ id: 1, name: 'JavaScript' }]);
    expect(count).to.equal(1);
  });

  it('passwords: the entity service hashes them, the query engine (db.query) stores them as given, as Strapi', async () => {
    const register = await request(service.app)
      .post('/api/auth/local/register')
      .send({ username: 'hashing', email: 'hashing@example.org', password: 'Password123!' });
    expect(register.status, JSON.stringify(register.body)).to.equal(200);
    const id = register.body.user.id as number;
    const login = (password: string) =>
      request(service.app).post('/api/auth/local').send({ identifier: 'hashing', password });
    // an app that hashes a password itself and stores it through the query engine
    const hashed = await bcrypt.hash('Queried456!', 10);
    await strapi.db.query(USER).update({ where: { id }, data: { password: hashed } });
    expect((await login('Queried456!')).status).to.equal(200);
    // the entity service hashes what it is given
    await strapi.entityService.update(USER, id, { data: { password: 'Service789!' } });
    expect((await login('Service789!')).status).to.equal(200);
    const stored = await service.context.models.collection(USER).findOne({ _id: id as never });
    expect(String((stored as { password?: string } | null)?.password)).to.match(/^\$2[aby]\$10\$/);
  });

  it("strapi.service('api::…'): the core service, with REST's page size and live entries", async () => {
    const articles = strapi.service('api::article.article') as {
      find(params?: object): Promise<{ results: Array<Record<string, unknown>>; pagination: Record<string, number> }>;
      findOne(id: number): Promise<Record<string, unknown> | null>;
      create(params: object): Promise<Record<string, unknown> | null>;
      delete(id: number): Promise<unknown>;
      notACoreMethod?: unknown;
    };
    const page = await articles.find({ fields: ['title', 'publishedAt'], pagination: { page: 1, pageSize: 3 } });
    expect(page.results).to.have.length(3);
    expect(page.pagination).to.include({ page: 1, pageSize: 3 });
    expect(page.results.every((a) => a.publishedAt !== null)).to.equal(true);
    const created = await articles.create({ data: { title: 'Published by the core service', slug: 'core-service' } });
    expect(created?.publishedAt).to.be.a('string').and.not.equal(null);
    await articles.delete(created!.id as number);
    expect(() => articles.notACoreMethod).to.throw(
      "strapi.service('api::article.article').notACoreMethod is not supported by Content Service: it offers the core service's find",
    );
    expect(() => strapi.service('api::nothing.nothing')).to.throw(
      /strapi\.service\('api::nothing\.nothing'\) is not supported/,
    );
  });
});
