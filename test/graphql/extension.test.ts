import { expect } from 'chai';
import request from 'supertest';
import type { ExtensionService } from '../../src/plugins/graphql/index.js';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { at, gql, registerUser } from './helpers.js';

interface FormatReturnTypes {
  toEntityResponseCollection(nodes: unknown[], info: { args?: unknown; resourceUID?: string }): unknown;
}

interface KoaResolverContext {
  koaContext: {
    set(name: string, value: string): void;
    get(name: string): string;
    cookies: { set(name: string, value: string, options: Record<string, unknown>): void };
    state: unknown;
  };
  state: { user?: { username?: string } };
}

/** The extension service: shadow CRUD switches, typeDefs + resolvers, resolversConfig (auth, policies, middlewares). */
describe('GraphQL extension service', () => {
  let service: TestService;
  let jwt: string;
  const seen: string[] = [];
  const policyCalls: unknown[] = [];
  before(async () => {
    service = await createTestService({
      register({ app }) {
        const extension = app.plugin('graphql').service('extension') as ExtensionService;
        extension.shadowCRUD('api::note.note').disableMutations();
        extension.shadowCRUD('api::event.event').disable();
        extension.shadowCRUD('api::tag.tag').disableAction('findOne');
        extension.shadowCRUD('api::article.article').field('summary').disable();
        extension.shadowCRUD('api::category.category').field('sortOrder').disableFilters();
        extension.use({
          typeDefs:
            'type Query { hello(name: String = "world"): String  secret: String  whoAmI: String  pagedArticles(filters: ArticleFiltersInput, pagination: PaginationArg, transformed: Boolean): ArticleEntityResponseCollection } extend type Article { titleLength: Int }',
          resolvers: {
            Query: {
              hello: (_p, args) => `hello ${String(args.name)}`,
              secret: () => 'classified',
              // the usual custom list resolver: entries read by the app, answered through the format service
              pagedArticles: (_p, args) => {
                const { toEntityResponseCollection } = (
                  app.plugin('graphql').service('format') as { returnTypes: FormatReturnTypes }
                ).returnTypes;
                // Strapi's own resolvers pass transformed args (start, limit, `$` operators)
                const given = args.transformed ? { start: 2, limit: 2, filters: { title: { $containsi: 'a' } } } : args;
                return toEntityResponseCollection([{ id: 1, title: 'first' }], {
                  args: given,
                  resourceUID: 'api::article.article',
                });
              },
              // Strapi's context.koaContext: the request's Koa context, its state the resolver context's
              whoAmI: (_p, _args, context) => {
                const { koaContext, state } = context as KoaResolverContext;
                koaContext.set('X-Resolver', 'whoAmI');
                koaContext.cookies.set('seen', 'yes', { httpOnly: true });
                const client = koaContext.get('x-client') || 'none';
                return `${client} ${koaContext.state === state ? 'same-state' : 'other-state'} ${state.user?.username ?? 'public'}`;
              },
            },
            Article: { titleLength: (parent) => String((parent as { title?: string }).title ?? '').length },
          },
          resolversConfig: {
            'Query.hello': { auth: false },
            'Query.secret': { auth: { scope: ['api::note.note.create'] } },
            'Query.categories': { policies: [({ args }) => args.filters === undefined] },
            // as Strapi calls a policy: (policyContext, config, { strapi }); nothing returned passes,
            // anything but true or nothing fails
            'Query.tags': {
              policies: [
                (policyContext, config, helpers) => {
                  const user = policyContext.state.user as { username?: string } | undefined;
                  policyCalls.push({
                    type: policyContext.type,
                    graphql: policyContext.is('graphql'),
                    user: user?.username ?? null,
                    pagination: policyContext.args.pagination,
                    http: typeof (policyContext.http as { get?: unknown }).get,
                    config,
                    strapi: helpers.strapi !== undefined,
                  });
                  return user ? undefined : 'not signed in';
                },
              ],
            },
            'Query.authors': {
              middlewares: [
                async (next, parent, args, context, info) => {
                  seen.push('before');
                  const out = await next(parent, args, context, info);
                  seen.push('after');
                  return out;
                },
              ],
            },
          },
        });
      },
    });
    await seedPublication(service.context);
    jwt = await registerUser(service, 'extuser');
  });
  after(() => service.close());

  async function fieldNames(type: string): Promise<string[]> {
    const res = await gql(service, `{ __type(name: "${type}") { fields { name } inputFields { name } } }`);
    const t = at(res.body, 'data.__type') as {
      fields: Array<{ name: string }> | null;
      inputFields: Array<{ name: string }> | null;
    } | null;
    return [...(t?.fields ?? []), ...(t?.inputFields ?? [])].map((f) => f.name);
  }

  it('removes disabled types, actions and fields', async () => {
    const mutations = await fieldNames('Mutation');
    expect(mutations).not.to.include('createNote');
    expect(mutations).to.include('createTag');
    const queries = await fieldNames('Query');
    expect(queries).to.include('notes');
    expect(queries).not.to.include('events');
    expect(queries).not.to.include('tag');
    expect(queries).to.include('tags');
    expect(await fieldNames('Event')).to.deep.equal([]);
    expect(await fieldNames('Article')).not.to.include('summary');
    expect(await fieldNames('ArticleInput')).not.to.include('summary');
    expect(await fieldNames('CategoryFiltersInput')).not.to.include('sortOrder');
    expect(await fieldNames('Category')).to.include('sortOrder');
  });

  it('adds typeDefs and resolvers, extending existing types', async () => {
    expect((await gql(service, '{ hello }')).body).to.deep.equal({ data: { hello: 'hello world' } });
    const res = await gql(service, '{ article(id: 1) { data { attributes { title titleLength } } } }');
    expect(at(res.body, 'data.article.data.attributes.titleLength')).to.equal('Getting Started with Strapi'.length);
  });

  it("gives resolvers the request's Koa context (headers, cookies, state)", async () => {
    const res = await request(service.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${jwt}`)
      .set('X-Client', 'mobile')
      .send({ query: '{ whoAmI }' })
      .expect(200);
    expect(res.body).to.deep.equal({ data: { whoAmI: 'mobile same-state extuser' } });
    expect(res.headers['x-resolver']).to.equal('whoAmI');
    expect(String(res.headers['set-cookie'])).to.match(/^seen=yes; Path=\/; HttpOnly/);
    // a root field the app added, with no resolversConfig auth: as Strapi's auth verifies a route
    // with no scope, the public is refused before the resolver runs
    const publicCall = await request(service.app).post('/graphql').send({ query: '{ whoAmI }' }).expect(200);
    expect(publicCall.body.errors?.[0]?.extensions?.code).to.equal('FORBIDDEN');
    expect(publicCall.body.data).to.deep.equal({ whoAmI: null });
    expect(publicCall.headers['x-resolver']).to.equal(undefined);
  });

  it("counts a custom resolver's collection as Strapi's format service does (meta.pagination)", async () => {
    const filters = '{ title: { containsi: "a" } }';
    const shadow = await gql(service, `{ articles(filters: ${filters}) { meta { pagination { total } } } }`);
    const total = at(shadow.body, 'data.articles.meta.pagination.total') as number;
    expect(total).to.be.greaterThan(1);
    const raw = await gql(
      service,
      `{ pagedArticles(filters: ${filters}, pagination: { page: 2, pageSize: 1 }) { data { id attributes { title } } meta { pagination { total page pageSize pageCount } } } }`,
      undefined,
      jwt,
    );
    expect(at(raw.body, 'data.pagedArticles')).to.deep.equal({
      data: [{ id: '1', attributes: { title: 'first' } }],
      meta: { pagination: { total, page: 2, pageSize: 1, pageCount: total } },
    });
    const transformed = await gql(
      service,
      '{ pagedArticles(transformed: true) { meta { pagination { total page pageSize pageCount } } } }',
      undefined,
      jwt,
    );
    expect(at(transformed.body, 'data.pagedArticles.meta.pagination')).to.deep.equal({
      total,
      page: 2,
      pageSize: 2,
      pageCount: Math.ceil(total / 2),
    });
    const everything = await gql(service, '{ pagedArticles { meta { pagination { total } } } }', undefined, jwt);
    const all = await gql(service, '{ articles { meta { pagination { total } } } }');
    expect(at(everything.body, 'data.pagedArticles.meta.pagination.total')).to.equal(
      at(all.body, 'data.articles.meta.pagination.total'),
    );
  });

  it('applies resolversConfig auth scopes', async () => {
    expect((await gql(service, '{ secret }')).body.errors?.[0]?.extensions?.code).to.equal('FORBIDDEN');
    expect((await gql(service, '{ secret }', undefined, jwt)).body).to.deep.equal({ data: { secret: 'classified' } });
  });

  it('applies policies and middlewares', async () => {
    expect((await gql(service, '{ categories { data { id } } }')).body.errors).to.equal(undefined);
    const denied = await gql(service, '{ categories(filters: { name: { eq: "x" } }) { data { id } } }');
    expect(denied.body.errors?.[0]?.message).to.equal('Policy Failed');
    expect(at(denied.body, 'data.categories')).to.equal(null);
    await gql(service, '{ authors { data { id } } }');
    expect(seen).to.deep.equal(['before', 'after']);
  });

  it("calls a policy as Strapi does: the request's state, the resolver's args, http; nothing returned passes", async () => {
    const signedIn = await gql(service, '{ tags(pagination: { limit: 1 }) { data { id } } }', undefined, jwt);
    expect(signedIn.body.errors).to.equal(undefined);
    expect(at(signedIn.body, 'data.tags.data')).to.have.length(1);
    const anonymous = await gql(service, '{ tags { data { id } } }');
    expect(anonymous.body.errors?.[0]?.message).to.equal('Policy Failed');
    expect(at(anonymous.body, 'data.tags')).to.equal(null);
    expect(policyCalls).to.deep.equal([
      {
        type: 'graphql',
        graphql: true,
        user: 'extuser',
        pagination: { limit: 1 },
        http: 'function',
        config: {},
        strapi: true,
      },
      { type: 'graphql', graphql: true, user: null, pagination: {}, http: 'function', config: {}, strapi: true },
    ]);
  });

  it('rebuilds the schema when an extension is added later', async () => {
    const extension = service.plugin('graphql').service('extension') as ExtensionService;
    extension.use(({ schemaComposer }) => {
      schemaComposer.Query.addFields({ late: { type: 'String', resolve: () => 'yes' } });
    });
    expect((await gql(service, '{ late }', undefined, jwt)).body).to.deep.equal({ data: { late: 'yes' } });
    expect((await gql(service, '{ late }')).body.errors?.[0]?.extensions?.code).to.equal('FORBIDDEN');
  });
});
