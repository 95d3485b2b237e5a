import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { at, gql, registerUser } from './helpers.js';

/** Mutations, users-permissions fields and permission outcomes: the same actions REST checks. */
describe('GraphQL mutations and permissions', () => {
  let service: TestService;
  let jwt: string;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
    jwt = await registerUser(service, 'gqluser');
  });
  after(() => service.close());

  it('creates, updates and deletes a note, answering the selection', async () => {
    const created = await gql(
      service,
      'mutation { createNote(data: { title: "gql note", score: 3 }) { data { id attributes { title score pinned createdAt } } } }',
      undefined,
      jwt,
    );
    expect(created.body.errors).to.equal(undefined);
    const id = at(created.body, 'data.createNote.data.id');
    expect(id).to.be.a('string');
    expect(at(created.body, 'data.createNote.data.attributes')).to.deep.include({
      title: 'gql note',
      score: 3,
      pinned: false,
    });
    const updated = await gql(
      service,
      'mutation($id: ID!) { updateNote(id: $id, data: { score: 4, pinned: true }) { data { attributes { title score pinned } } } }',
      { id },
      jwt,
    );
    expect(at(updated.body, 'data.updateNote.data.attributes')).to.deep.equal({
      title: 'gql note',
      score: 4,
      pinned: true,
    });
    const deleted = await gql(
      service,
      'mutation($id: ID!) { deleteNote(id: $id) { data { id attributes { title } } } }',
      { id },
      jwt,
    );
    expect(at(deleted.body, 'data.deleteNote.data')).to.deep.equal({ id, attributes: { title: 'gql note' } });
    const gone = await gql(service, 'query($id: ID) { note(id: $id) { data { id } } }', { id });
    expect(gone.body).to.deep.equal({ data: { note: { data: null } } });
  });

  it('answers update and delete of an id that does not exist with data: null, as Strapi', async () => {
    for (const mutation of [
      'mutation { updateNote(id: 99999, data: { title: "x" }) { data { id attributes { title } } } }',
      'mutation { updateNote(id: "abc", data: { title: "x" }) { data { id } } }',
      'mutation { deleteNote(id: 99999) { data { id attributes { title } } } }',
    ]) {
      const res = await gql(service, mutation, undefined, jwt);
      expect(res.status).to.equal(200);
      expect(res.body.errors, mutation).to.equal(undefined);
      const [field] = Object.keys(res.body.data ?? {});
      expect(res.body.data?.[field ?? '']).to.deep.equal({ data: null });
    }
  });

  it('answers a deleted entry with its scalars; its relations and components are gone (as Strapi resolves them after the delete)', async () => {
    const created = await gql(
      service,
      'mutation { createArticle(data: { title: "to delete", author: 1, tags: [2, 3], seo: { metaTitle: "m" }, links: [{ label: "l", url: "u" }] }) { data { id } } }',
      undefined,
      jwt,
    );
    const id = at(created.body, 'data.createArticle.data.id');
    const deleted = await gql(
      service,
      'mutation($id: ID!) { deleteArticle(id: $id) { data { id attributes { title seo { metaTitle } links { label } author { data { id } } tags { data { id } } blocks { __typename } } } } }',
      { id },
      jwt,
    );
    expect(deleted.body.errors).to.equal(undefined);
    expect(at(deleted.body, 'data.deleteArticle.data.attributes')).to.deep.equal({
      title: 'to delete',
      seo: null,
      links: null,
      author: { data: null },
      tags: { data: [] },
      blocks: null,
    });
  });

  it('answers a write validation error as BAD_USER_INPUT with the details', async () => {
    const res = await gql(service, 'mutation { createNote(data: { score: 3 }) { data { id } } }', undefined, jwt);
    expect(res.status).to.equal(200);
    const error = res.body.errors?.[0];
    expect(error?.extensions?.code).to.equal('BAD_USER_INPUT');
    expect((error?.extensions?.error as { name: string }).name).to.equal('ValidationError');
    expect(at(res.body, 'data.createNote')).to.equal(null);
  });

  it('creates an entry with relations and components, read back in the answer', async () => {
    const res = await gql(
      service,
      `mutation { createArticle(data: { title: "GQL article", kind: news, author: 2, tags: [1, 3], seo: { metaTitle: "m", metaSocial: [{ network: Twitter, title: "t" }] } }) {
      data { id attributes { title kind publishedAt author { data { id } } tags { data { id } } seo { metaTitle metaSocial { network } } } } } }`,
      undefined,
      jwt,
    );
    expect(res.body.errors).to.equal(undefined);
    expect(at(res.body, 'data.createArticle.data.attributes')).to.deep.include({
      title: 'GQL article',
      kind: 'news',
      author: { data: { id: '2' } },
      tags: { data: [{ id: '1' }, { id: '3' }] },
    });
    expect(at(res.body, 'data.createArticle.data.attributes.seo.metaSocial')).to.deep.equal([{ network: 'Twitter' }]);
    const id = at(res.body, 'data.createArticle.data.id');
    await gql(service, 'mutation($id: ID!) { deleteArticle(id: $id) { data { id } } }', { id }, jwt);
  });

  it('creates a draft unless publishedAt is given, as Strapi (its GraphQL create is the entity service)', async () => {
    const draft = await gql(
      service,
      'mutation { createArticle(data: { title: "GQL draft" }) { data { id attributes { publishedAt } } } }',
      undefined,
      jwt,
    );
    expect(at(draft.body, 'data.createArticle.data.attributes.publishedAt')).to.equal(null);
    const id = at(draft.body, 'data.createArticle.data.id');
    expect(
      at((await gql(service, `{ article(id: ${id}) { data { id } } }`, undefined, jwt)).body, 'data.article.data'),
    ).to.equal(null);
    const published = await gql(
      service,
      'mutation { createArticle(data: { title: "GQL published", publishedAt: "2024-01-01T00:00:00.000Z" }) { data { id attributes { publishedAt } } } }',
      undefined,
      jwt,
    );
    expect(at(published.body, 'data.createArticle.data.attributes.publishedAt')).to.equal('2024-01-01T00:00:00.000Z');
    for (const created of [id, at(published.body, 'data.createArticle.data.id')])
      await gql(service, 'mutation($id: ID!) { deleteArticle(id: $id) { data { id } } }', { id: created }, jwt);
  });

  it('validates a create without publishedAt as a published entry, though it stores a draft (Strapi 4.26)', async () => {
    const count = async () =>
      at(
        (
          await gql(
            service,
            '{ articles(publicationState: PREVIEW, locale: "all") { meta { pagination { total } } } }',
            undefined,
            jwt,
          )
        ).body,
        'data.articles.meta.pagination.total',
      );
    const before = await count();
    const missing = await gql(service, 'mutation { createArticle(data: {}) { data { id } } }', undefined, jwt);
    expect(missing.body).to.deep.equal({
      errors: [
        {
          message: 'title must be defined.',
          extensions: {
            error: {
              name: 'ValidationError',
              message: 'title must be defined.',
              details: { errors: [{ path: ['title'], message: 'title must be defined.', name: 'ValidationError' }] },
            },
            code: 'BAD_USER_INPUT',
          },
        },
      ],
      data: { createArticle: null },
    });
    expect(await count()).to.equal(before);
    // an explicit draft skips the required check; its null title then fails the non-null field,
    // with graphql-js's own message, as Strapi shows it
    const draft = await gql(
      service,
      'mutation { createArticle(data: { publishedAt: null }) { data { id attributes { title } } } }',
      undefined,
      jwt,
    );
    const id = at(draft.body, 'data.createArticle.data.id');
    expect(draft.body).to.deep.equal({
      errors: [
        {
          message: 'Cannot return null for non-nullable field Article.title.',
          locations: [{ line: 1, column: 80 }],
          path: ['createArticle', 'data', 'attributes', 'title'],
          extensions: { code: 'INTERNAL_SERVER_ERROR' },
        },
      ],
      data: { createArticle: { data: { id, attributes: null } } },
    });
    expect(await count()).to.equal(Number(before) + 1);
    await gql(service, 'mutation($id: ID!) { deleteArticle(id: $id) { data { id } } }', { id }, jwt);
  });

  it('creates an entry in another locale and a localization of an existing entry (a draft when publishedAt is not given)', async () => {
    const fr = await gql(
      service,
      'mutation { createArticle(locale: "fr", data: { title: "Article GQL" }) { data { id attributes { locale } } } }',
      undefined,
      jwt,
    );
    expect(at(fr.body, 'data.createArticle.data.attributes.locale'), JSON.stringify(fr.body)).to.equal('fr');
    const res = await gql(
      service,
      `mutation { createArticleLocalization(id: 4, locale: "fr", data: { title: "Croissance bio" }) {
      data { id attributes { title locale publishedAt localizations(publicationState: PREVIEW) { data { id } } } } } }`,
      undefined,
      jwt,
    );
    expect(res.body.errors, JSON.stringify(res.body.errors)).to.equal(undefined);
    expect(at(res.body, 'data.createArticleLocalization.data.attributes')).to.deep.include({
      title: 'Croissance bio',
      locale: 'fr',
      publishedAt: null,
    });
    expect(at(res.body, 'data.createArticleLocalization.data.attributes.localizations.data')).to.deep.equal([
      { id: '4' },
    ]);
    const again = await gql(
      service,
      'mutation { createArticleLocalization(id: 4, locale: "fr", data: { title: "x" }) { data { id } } }',
      undefined,
      jwt,
    );
    expect(again.body.errors?.[0]?.message).to.equal('locale is already used');
  });

  it('denies a public caller what the Public role may not do: Forbidden access, data field null', async () => {
    const res = await gql(service, '{ usersPermissionsUsers { data { id } } }');
    expect(res.body).to.deep.equal({
      errors: [
        {
          message: 'Forbidden access',
          extensions: {
            error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} },
            code: 'FORBIDDEN',
          },
        },
      ],
      data: { usersPermissionsUsers: null },
    });
    const write = await gql(service, 'mutation { createNote(data: { title: "x" }) { data { id } } }');
    expect(write.body.errors?.[0]?.extensions?.code).to.equal('FORBIDDEN');
    expect(await service.context.models.collection('api::note.note').countDocuments({ title: 'x' })).to.equal(0);
  });

  it('checks changePassword against the role (auth.changePassword): public is Forbidden access, a user gets the password check', async () => {
    const mutation =
      'mutation { changePassword(currentPassword: "nope", password: "Password123!", passwordConfirmation: "Password123!") { jwt } }';
    const anonymous = await gql(service, mutation);
    expect(anonymous.body).to.deep.equal({
      errors: [
        {
          message: 'Forbidden access',
          extensions: {
            error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} },
            code: 'FORBIDDEN',
          },
        },
      ],
      data: { changePassword: null },
    });
    const user = await gql(service, mutation, undefined, jwt);
    expect(user.body).to.deep.equal({
      errors: [
        {
          message: 'The provided current password is invalid',
          extensions: {
            error: { name: 'ValidationError', message: 'The provided current password is invalid', details: {} },
            code: 'BAD_USER_INPUT',
          },
        },
      ],
      data: { changePassword: null },
    });
  });

  it('lets an authenticated user list users, never with private fields; relations to types it may not read are null and FORBIDDEN', async () => {
    const res = await gql(
      service,
      '{ usersPermissionsUsers(sort: "id") { data { id attributes { username email role { data { attributes { type } } } } } } }',
      undefined,
      jwt,
    );
    // the Authenticated role may not find roles: the relation is null with Strapi's FORBIDDEN error
    expect(res.body.errors?.map((e) => e.extensions?.code)).to.deep.equal(['FORBIDDEN']);
    expect(at(res.body, 'data.usersPermissionsUsers.data')).to.deep.equal([
      { id: '1', attributes: { username: 'gqluser', email: 'gqluser@example.org', role: null } },
    ]);
    const secret = await gql(service, '{ usersPermissionsUsers { data { attributes { password } } } }', undefined, jwt);
    expect(secret.status).to.equal(400);
  });

  it('logs in (the payload’s user without its role, as Strapi 4.26) and answers me with the role', async () => {
    const login = await gql(
      service,
      'mutation { login(input: { identifier: "gqluser", password: "Password123!" }) { jwt user { id username role { type } } } }',
    );
    expect(at(login.body, 'data.login.user')).to.deep.equal({ id: '1', username: 'gqluser', role: null });
    const token = at(login.body, 'data.login.jwt') as string;
    const me = await gql(service, '{ me { username email role { type } } }', undefined, token);
    expect(at(me.body, 'data.me')).to.deep.equal({
      username: 'gqluser',
      email: 'gqluser@example.org',
      role: { type: 'authenticated' },
    });
    const wrong = await gql(service, 'mutation { login(input: { identifier: "gqluser", password: "nope" }) { jwt } }');
    expect(wrong.body.errors?.[0]?.message).to.equal('Invalid identifier or password');
    expect(wrong.body.errors?.[0]?.extensions?.code).to.equal('BAD_USER_INPUT');
    const anonymous = await gql(service, '{ me { id } }');
    expect(anonymous.body.errors?.[0]?.extensions?.code).to.equal('FORBIDDEN');
    // an API token's caller is no user: Strapi's resolver fails with a plain error
    const { accessKey } = await createApiToken(service.context, { name: 'gql-me', type: 'full-access' });
    expect((await gql(service, '{ me { id } }', undefined, accessKey)).body).to.deep.equal({
      errors: [
        {
          message: 'Authentication requested',
          locations: [{ line: 1, column: 3 }],
          path: ['me'],
          extensions: { code: 'INTERNAL_SERVER_ERROR' },
        },
      ],
      data: { me: null },
    });
  });

  it('register shows the new user’s role to a caller who may read roles, as Strapi (login never does)', async () => {
    const { accessKey } = await createApiToken(service.context, { name: 'gql-register', type: 'full-access' });
    const query = (name: string) =>
      `mutation { register(input: { username: "${name}", email: "${name}@example.org", password: "Password123!" }) { user { username role { name type } } } }`;
    expect(at((await gql(service, query('gqlroled'), undefined, accessKey)).body, 'data.register.user')).to.deep.equal({
      username: 'gqlroled',
      role: { name: 'Authenticated', type: 'authenticated' },
    });
    expect(at((await gql(service, query('gqlplain'))).body, 'data.register.user')).to.deep.equal({
      username: 'gqlplain',
      role: null,
    });
    const login = await gql(
      service,
      'mutation { login(input: { identifier: "gqlroled", password: "Password123!" }) { user { role { name } } } }',
      undefined,
      accessKey,
    );
    expect(at(login.body, 'data.login.user')).to.deep.equal({ role: null });
  });

  it('rejects a registration that reuses a username with Strapi ApplicationError', async () => {
    const res = await gql(
      service,
      'mutation { register(input: { username: "gqluser", email: "other@example.org", password: "Password123!" }) { jwt } }',
    );
    expect(res.body.errors?.[0]?.message).to.equal('Email or Username are already taken');
    expect(res.body.errors?.[0]?.extensions?.code).to.equal('STRAPI_APPLICATION_ERROR');
  });

  it('lists the configured locales to callers allowed plugin::i18n.locales.listLocales, and denies the others', async () => {
    expect(
      (await gql(service, '{ i18NLocales { data { id } } }', undefined, jwt)).body.errors?.[0]?.extensions?.code,
    ).to.equal('FORBIDDEN');
    const { accessKey } = await createApiToken(service.context, { name: 'gql-locales', type: 'full-access' });
    const res = await gql(service, '{ i18NLocales { data { id attributes { code name } } } }', undefined, accessKey);
    expect(at(res.body, 'data.i18NLocales.data')).to.deep.equal([
      { id: '1', attributes: { code: 'en', name: 'English (en)' } },
      { id: '2', attributes: { code: 'fr', name: 'French (fr)' } },
    ]);

    // filters, sort and pagination as Strapi 4.26 applies them to the locale type
    const list = async (args: string) => {
      const answer = await gql(
        service,
        `{ i18NLocales${args} { data { id } meta { pagination { total page pageSize pageCount } } } }`,
        undefined,
        accessKey,
      );
      return answer.body.errors?.[0]?.message ?? at(answer.body, 'data.i18NLocales');
    };
    const ids = (...values: string[]) => values.map((id) => ({ id }));
    const meta = (total: number, page: number, pageSize: number, pageCount: number) => ({
      pagination: { total, page, pageSize, pageCount },
    });
    expect(await list('')).to.deep.equal({ data: ids('1', '2'), meta: meta(2, 1, 10, 1) });
    expect(await list('(sort: ["code:desc"])')).to.deep.equal({ data: ids('2', '1'), meta: meta(2, 1, 10, 1) });
    expect(await list('(filters: { code: { eq: "fr" } })')).to.deep.equal({ data: ids('2'), meta: meta(1, 1, 10, 1) });
    expect(await list('(filters: { name: { containsi: "FRENCH" } }, sort: "name")')).to.deep.equal({
      data: ids('2'),
      meta: meta(1, 1, 10, 1),
    });
    expect(await list('(filters: { or: [{ code: { eq: "en" } }, { id: { eq: 2 } }] }, sort: "id:desc")')).to.deep.equal(
      { data: ids('2', '1'), meta: meta(2, 1, 10, 1) },
    );
    expect(await list('(pagination: { pageSize: 1, page: 2 })')).to.deep.equal({
      data: ids('2'),
      meta: meta(2, 2, 1, 2),
    });
    expect(await list('(pagination: { start: 1, limit: 1 })')).to.deep.equal({
      data: ids('2'),
      meta: meta(2, 2, 1, 2),
    });
    expect(await list('(sort: "nothere")')).to.equal('Invalid parameter nothere');
    expect(await list('(filters: { code: { eq: "fr" } }, pagination: { page: 1, limit: 1 })')).to.equal(
      'Cannot use both page & offset pagination in the same query',
    );
  });

  it('answers the locales with the createdAt and updatedAt REST gives them (Strapi 4.26 stamps locale rows)', async () => {
    const { accessKey } = await createApiToken(service.context, { name: 'gql-locale-stamps', type: 'full-access' });
    const rest = await request(service.app).get('/api/i18n/locales').set('Authorization', `Bearer ${accessKey}`);
    const stamps = (rest.body as { createdAt: string; updatedAt: string }[]).map(({ createdAt, updatedAt }) => ({
      createdAt,
      updatedAt,
    }));
    expect(stamps).to.have.length(2);
    expect(Number.isNaN(Date.parse(stamps[0]!.createdAt))).to.equal(false);
    const one = await gql(
      service,
      '{ i18NLocale(id: 2) { data { attributes { createdAt updatedAt } } } }',
      undefined,
      accessKey,
    );
    expect(at(one.body, 'data.i18NLocale.data.attributes')).to.deep.equal(stamps[1]);
    const list = await gql(
      service,
      `{ i18NLocales(filters: { createdAt: { lte: "${stamps[0]!.createdAt}" } }) { data { attributes { createdAt updatedAt } } } }`,
      undefined,
      accessKey,
    );
    expect(at(list.body, 'data.i18NLocales.data')).to.deep.equal(stamps.map((attributes) => ({ attributes })));
  });

  it("createUsersPermissionsUser runs POST /api/users' checks and answers (Strapi 4.26 runs that controller)", async () => {
    const { accessKey } = await createApiToken(service.context, { name: 'gql-users', type: 'full-access' });
    const create = (data: string) =>
      gql(
        service,
        `mutation { createUsersPermissionsUser(data: { ${data} }) { data { id attributes { username email } } } }`,
        undefined,
        accessKey,
      );
    const bad = await create('username: ""');
    expect(at(bad.body, 'errors.0.extensions.error.details.errors')).to.deep.equal(
      [
        ['email', 'email is a required field'],
        ['username', 'username must be at least 1 characters'],
        ['username', 'username is a required field'],
        ['password', 'password is a required field'],
        ['role', 'role is a required field'],
      ].map(([path, message]) => ({ path: [path], message, name: 'ValidationError' })),
    );
    const made = await create('username: "gqlmade", email: "Made@x.io", password: "secret1", role: "1"');
    expect(at(made.body, 'data.createUsersPermissionsUser.data.attributes')).to.deep.equal({
      username: 'gqlmade',
      email: 'made@x.io',
    });
    const taken = await create('username: "gqlmade2", email: "made@x.io", password: "secret1", role: "1"');
    expect([taken.body.errors?.[0]?.message, taken.body.errors?.[0]?.extensions?.code]).to.deep.equal([
      'Email already taken',
      'STRAPI_APPLICATION_ERROR',
    ]);
  });

  it("updateUsersPermissionsUser runs PUT /api/users/:id's checks, also for an API token; deleting an unknown user is data: null", async () => {
    const { accessKey } = await createApiToken(service.context, { name: 'gql-users-update', type: 'full-access' });
    const update = (id: string, data: string) =>
      gql(
        service,
        `mutation { updateUsersPermissionsUser(id: ${id}, data: { ${data} }) { data { id attributes { username email } } } }`,
        undefined,
        accessKey,
      );
    const made = await gql(
      service,
      'mutation { createUsersPermissionsUser(data: { username: "gqlupd", email: "upd@x.io", password: "secret1", role: "1" }) { data { id } } }',
      undefined,
      accessKey,
    );
    const id = String(at(made.body, 'data.createUsersPermissionsUser.data.id'));
    const taken = await update(id, 'username: "gqlmade"');
    expect([taken.body.errors?.[0]?.message, taken.body.errors?.[0]?.extensions?.code]).to.deep.equal([
      'Username already taken',
      'STRAPI_APPLICATION_ERROR',
    ]);
    const empty = await update(id, 'email: ""');
    expect(at(empty.body, 'errors.0.extensions.error.details.errors.0.message')).to.equal(
      'email must be at least 1 characters',
    );
    const renamed = await update(id, 'username: "gqlupd2", email: "Upd2@x.io"');
    expect(at(renamed.body, 'data.updateUsersPermissionsUser.data')).to.deep.equal({
      id,
      attributes: { username: 'gqlupd2', email: 'upd2@x.io' },
    });
    const gone = await gql(
      service,
      'mutation { deleteUsersPermissionsUser(id: 9999) { data { id } } }',
      undefined,
      accessKey,
    );
    expect(gone.body).to.deep.equal({ data: { deleteUsersPermissionsUser: { data: null } } });
  });

  it('updates and deletes the single type', async () => {
    const res = await gql(
      service,
      'mutation { updateHomepage(data: { subtitle: "from graphql" }) { data { attributes { subtitle } } } }',
      undefined,
      jwt,
    );
    expect(at(res.body, 'data.updateHomepage.data.attributes.subtitle')).to.equal('from graphql');
  });

  it("answers a single type's refused update as Strapi: { data: null } with the validation error, nothing written", async () => {
    const res = await gql(
      service,
      'mutation { updateHomepage(data: { title: null }) { data { attributes { title } } } }',
      undefined,
      jwt,
    );
    expect(res.body.data).to.deep.equal({ updateHomepage: { data: null } });
    expect(res.body.errors?.[0]?.extensions?.code).to.equal('BAD_USER_INPUT');
    expect(res.body.errors?.[0]?.message).to.match(/^title must be a `string` type/);
    const read = await gql(service, '{ homepage { data { attributes { title subtitle } } } }', undefined, jwt);
    expect(at(read.body, 'data.homepage.data.attributes.subtitle')).to.equal('from graphql');
    expect(at(read.body, 'data.homepage.data.attributes.title')).to.be.a('string');
  });

  it('answers a bad token with 401 before GraphQL runs', async () => {
    const res = await gql(service, '{ notes { data { id } } }', undefined, 'not-a-jwt');
    expect(res.status).to.equal(401);
  });

  it('deletes the single type; deleting it again is Strapi 4.26 resolver’s own NotFoundError', async () => {
    const mutation = 'mutation { deleteHomepage { data { attributes { subtitle } } } }';
    const deleted = await gql(service, mutation, undefined, jwt);
    expect(at(deleted.body, 'data.deleteHomepage.data.attributes.subtitle')).to.equal('from graphql');
    const again = await gql(service, mutation, undefined, jwt);
    expect(again.body).to.deep.equal({
      errors: [
        {
          message: 'Entity not found',
          extensions: {
            error: { name: 'NotFoundError', message: 'Entity not found', details: {} },
            code: 'STRAPI_NOT_FOUND_ERROR',
          },
        },
      ],
      data: { deleteHomepage: null },
    });
  });
});
