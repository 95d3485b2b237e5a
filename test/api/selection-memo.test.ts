import { expect } from 'chai';
import request from 'supertest';
import { POPULATE_ATTRIBUTE } from '../../src/query/index.js';
import { selectionKey } from '../../src/query/selection-memo.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { bearer, login, postsApp, registerSeedUsers } from './users-permissions/helpers.js';

/**
 * A read's parsed selection is memoized by its query's shape (src/query/selection-memo.ts): the
 * same query answered from the memo must be the answer the parse gives, whoever asks in between.
 */
describe('memoized read selections', () => {
  let service: TestService;
  let jwt: string;
  before(async () => {
    const appDir = await postsApp({
      public: ['api::post.post.find', 'api::post.post.findOne'],
      authenticated: [
        'api::post.post.find',
        'api::post.post.findOne',
        'api::writer.writer.find',
        'plugin::users-permissions.user.find',
      ],
    });
    service = await createTestService({ appDir });
    await registerSeedUsers(service.app);
    jwt = await login(service.app, 'alice', 'Password123!');
    const { models } = service.context;
    await models.model('api::writer.writer').create({ _id: 1, name: 'Zola', notes: 'secret notes' });
    await models.counters.next('writers', 1);
    await models.model('api::post.post').create({ _id: 1, title: 'first', owner: 1, writer: 1 });
    await models.model('api::post.post').create({ _id: 2, title: 'second', owner: 2, writer: null });
    await models.counters.next('posts', 2);
  });
  after(() => service.close());

  const queries = [
    'populate=*',
    'populate[writer][fields][0]=name',
    'populate[writer]=true&fields[0]=title',
    'populate[0]=writer&populate[1]=owner',
    'populate[owner][fields][0]=username&populate[writer][filters][name][$eq]=Zola',
    'fields[0]=title&fields[1]=createdAt',
    'populate[writer][populate]=*',
  ];

  it('answers a repeated query as its first parse did, for callers with different permissions in turn', async () => {
    const asked = async (path: string, user: boolean) => {
      const req = request(service.app).get(path);
      const res = await (user ? req.set(bearer(jwt)) : req);
      return { status: res.status, body: res.body as unknown };
    };
    for (const query of queries) {
      for (const path of [`/api/posts/1?${query}`, `/api/posts?${query}&sort=id`]) {
        const firstPublic = await asked(path, false);
        const firstUser = await asked(path, true);
        expect(firstPublic.status, `${path}: ${JSON.stringify(firstPublic.body)}`).to.be.oneOf([200, 400]);
        for (let round = 0; round < 2; round++) {
          expect(await asked(path, false), path).to.deep.equal(firstPublic);
          expect(await asked(path, true), path).to.deep.equal(firstUser);
        }
      }
    }
  });

  it('keeps each caller within its own permissions on the same query', async () => {
    for (let round = 0; round < 2; round++) {
      const open = await request(service.app).get('/api/posts/1?populate=*');
      expect(open.status).to.equal(200);
      expect(open.body.data.attributes).to.not.have.any.keys('owner', 'writer');
      const user = await request(service.app).get('/api/posts/1?populate=*').set(bearer(jwt));
      expect(user.status).to.equal(200);
      expect(user.body.data.attributes.writer.data.attributes).to.deep.include({ name: 'Zola' });
      expect(user.body.data.attributes.writer.data.attributes).to.not.have.property('notes');
      expect(user.body.data.attributes.owner.data.attributes).to.include({ username: 'alice' });
    }
  });

  it('keys only what a query string or a JSON body can hold', () => {
    expect(selectionKey('live', false, undefined, '*')).to.be.a('string');
    expect(selectionKey('live', false, undefined, { writer: { [POPULATE_ATTRIBUTE]: 'owner' } })).to.equal(undefined);
    expect(selectionKey('live', false, undefined, { writer: undefined })).to.equal(undefined);
    expect(selectionKey('live', false, [new Date(0)], undefined)).to.equal(undefined);
    expect(selectionKey('live', false, undefined, 'x'.repeat(3000))).to.equal(undefined);
    const distinct = [
      selectionKey('live', false, undefined, '*'),
      selectionKey('preview', false, undefined, '*'),
      selectionKey('live', true, undefined, '*'),
      selectionKey('live', false, '*', undefined),
      selectionKey('live', false, undefined, { a: { b: '1' } }),
      selectionKey('live', false, undefined, { a: { b: 1 } }),
      selectionKey('live', false, undefined, { a: ['b'] }),
      selectionKey('live', false, undefined, { b: true, a: true }),
      selectionKey('live', false, undefined, { a: true, b: true }),
    ];
    expect(new Set(distinct).size).to.equal(distinct.length);
  });
});
