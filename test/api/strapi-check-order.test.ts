import { expect } from 'chai';
import request from 'supertest';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { bearer, login, registerSeedUsers } from './users-permissions/helpers.js';

/**
 * Which refusal a read answers when it has several, and what a read that never applies its filters
 * refuses: Strapi 4.26 validates the query first (the filters' keys, the sort, fields, populate),
 * then its core service reads the pagination, then its database layer meets the rest (the
 * publication state, operator values), where its 500s are 400s here. Every expected answer below
 * is the reference Strapi 4.26.2's on the same seed (the differential sweep of parity31).
 */
describe('REST: the order of Strapi’s checks', () => {
  let service: TestService;
  let jwt: string;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
    await registerSeedUsers(service.app);
    jwt = await login(service.app, 'alice', 'Password123!');
  });
  after(() => service.close());

  const get = (path: string) => request(service.app).get(path);
  const refusal = async (path: string, auth?: string) => {
    const res = auth ? await get(path).set(bearer(auth)) : await get(path);
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    return res.body.error.message as string;
  };

  it('fields and populate are refused before the publication state and the pagination', async () => {
    expect(await refusal('/api/articles?fields[0]=internalNotes&publicationState=draft')).to.equal(
      'Invalid parameter internalNotes',
    );
    expect(await refusal('/api/authors?fields[0]=articles&pagination[start]=abc&pagination[limit]=100')).to.equal(
      'Invalid parameter articles',
    );
    expect(await refusal('/api/articles?populate[author][fields][0]=nope&publicationState=draft')).to.equal(
      'Invalid parameter nope',
    );
    // an empty `fields=` is no parameter to Strapi's validator: populate answers first
    expect(await refusal('/api/articles?populate[category][fields][0]=articles&fields=')).to.equal(
      'Invalid parameter articles',
    );
  });

  it('a mix of pagination styles is refused before the publication state and the sort directions', async () => {
    expect(await refusal('/api/articles?pagination[page]=1&pagination[limit]=2&publicationState=draft')).to.equal(
      'Invalid pagination parameters. Expected either start/limit or page/pageSize',
    );
    // a direction is met by Strapi's database layer, after its core service read the pagination (parity32)
    expect(await refusal('/api/articles?sort=title:up&pagination[page]=1&pagination[limit]=3')).to.equal(
      'Invalid pagination parameters. Expected either start/limit or page/pageSize',
    );
    expect(await refusal('/api/articles?sort=nope:up&pagination[page]=1&pagination[limit]=3')).to.equal(
      'Invalid parameter nope',
    );
    // an empty `fields=` fails in Strapi's database layer too: the pagination's 400 comes first (Strapi 4.26)
    for (const path of [
      '/api/articles?fields=&pagination[page]=1&pagination[start]=0',
      '/api/articles?pagination[page]=1&pagination[start]=0&fields=',
    ])
      expect(await refusal(path), path).to.equal(
        'Invalid pagination parameters. Expected either start/limit or page/pageSize',
      );
    expect(await refusal('/api/articles?fields=&publicationState=draft')).to.equal(
      'Invalid parameter publicationState: expected live or preview',
    );
    expect(await refusal('/api/articles?fields=&pagination[page]=1')).to.equal('Invalid parameter ');
  });

  it('filters, then sort, then fields, then populate', async () => {
    expect(
      await refusal(
        '/api/author-profiles?populate[author][filters][$not][name][$or][0][$nei]=x&filters[$and][x][handle]=a',
      ),
    ).to.equal('Invalid parameter x');
    expect(await refusal('/api/articles?fields=title,price&sort=tags')).to.equal('Invalid parameter tags');
    expect(await refusal('/api/articles?sort=zzz&filters[nope]=1')).to.equal('Invalid parameter nope');
    // a bad direction is met by the database layer, after fields
    expect(await refusal('/api/articles?sort=title:sideways&fields[0]=nope')).to.equal('Invalid parameter nope');
    // an operator's value too
    expect(await refusal('/api/articles?filters[title][$between]=a&fields[0]=nope')).to.equal('Invalid parameter nope');
  });

  it('in filters: of several unknown keys, the one Strapi 4.26’s traversal meets first ($and / $or items side by side)', async () => {
    for (const [query, key] of [
      // a later item's own key is met before an earlier item's nested one
      [
        'filters[$and][0][$or][0][kind][$eq]=news&filters[$and][0][$or][1][kind][$eq]=review&filters[$and][1][featured][$eq]=true',
        'featured',
      ],
      ['filters[$or][0][$and][0][a]=1&filters[$or][1][b][c]=1', 'b'],
      [
        'filters[$or][0][name][$eq]=1&filters[$or][0][zz]=1&filters[$or][1][title]=1&filters[$or][1][$and][0][yy]=1',
        'title',
      ],
      // in one object, keys in order; on a tie, the earlier item
      ['filters[zip]=1&filters[nope]=2', 'zip'],
      ['filters[$or][0][nope][$eq]=1&filters[$or][1][zip]=1', 'nope'],
      ['filters[$and][0][a]=1&filters[$and][1][$or][0][b]=1', 'a'],
      // the value under any operator is walked too, before the next key
      ['filters[$eq][nope]=1&filters[zip]=1', 'nope'],
      [
        'filters[$null][0][$or][0][kind][$eq]=news&filters[$and][0][$or][1][kind][$eq]=review&filters[$and][1][featured][$eq]=true',
        'kind',
      ],
    ] as const)
      expect(await refusal(`/api/tags?${query}`), query).to.equal(`Invalid parameter ${key}`);
    // a relation's filters take their time: the other item's second key is met first
    expect(
      await refusal(
        '/api/articles?filters[$or][0][author][name][$eq]=x&filters[$or][0][qq]=1&filters[$or][1][title][$eq]=1&filters[$or][1][pp]=2',
      ),
    ).to.equal('Invalid parameter pp');
  });

  it('in filters: unknown keys first, then dynamic zones, then passwords, then private attributes', async () => {
    expect(await refusal('/api/articles?filters[internalNotes][$eq]=a&filters[nope]=1')).to.equal(
      'Invalid parameter nope',
    );
    expect(await refusal('/api/articles?filters[internalNotes]=a&filters[blocks][text][$eq]=x')).to.equal(
      'Invalid parameter blocks',
    );
    expect(await refusal('/api/articles?filters[$or][0][internalNotes]=a&filters[$or][1][$foo]=1')).to.equal(
      'Invalid parameter $foo',
    );
    // under `id` every key is an operator; under another attribute Strapi does not look
    expect(await refusal('/api/articles?filters[id][eq]=1')).to.equal('Invalid parameter eq');
    expect(await refusal('/api/articles?filters[author][id][$foo]=1')).to.equal('Invalid parameter $foo');
    // `createdBy` and `updatedBy` are private attributes in Strapi, refused after unknown keys
    expect(
      await refusal('/api/articles?filters[reviewer][$or][0][updatedBy][$eq]=x&filters[$and][x][title]=a'),
    ).to.equal('Invalid parameter x');
    expect(await refusal('/api/articles?filters[createdBy][id]=1')).to.equal('Invalid parameter createdBy');
  });

  it('a findOne refuses only what Strapi’s validator refuses: it never applies its filters', async () => {
    const one = await get('/api/articles/1?filters[contactEmail][$and][0][$gte]=x&fields[0]=title');
    expect([one.status, one.body.data]).to.deep.equal([
      200,
      { id: 1, attributes: { title: 'Getting Started with Strapi' } },
    ]);
    expect((await get('/api/articles/1?filters=abc&fields[0]=title')).status).to.equal(200);
    const missing = await get('/api/events/abc?filters[day][$notIn][0]=2024-13-45&filters[capacity][$between]=5');
    expect([missing.status, missing.body.error.name]).to.deep.equal([404, 'NotFoundError']);
    expect(await refusal('/api/articles/1?filters[nope]=1')).to.equal('Invalid parameter nope');
    expect(await refusal('/api/articles/abc?filters[internalNotes]=1')).to.equal('Invalid parameter internalNotes');
  });

  it('a single type is checked before its filters or its search can miss it', async () => {
    expect(await refusal('/api/homepage?filters[title][$eq]=nomatch&fields[0]=nope')).to.equal(
      'Invalid parameter nope',
    );
    expect(await refusal('/api/homepage?_q=zzz&fields=title,id')).to.equal('Invalid parameter title,id');
  });

  it('GET /api/users/:id checks the query before it looks for the user', async () => {
    expect(await refusal('/api/users/0?fields[0]=resetPasswordToken', jwt)).to.equal(
      'Invalid parameter resetPasswordToken',
    );
    const missing = await get('/api/users/abc?fields[0]=username').set(bearer(jwt));
    expect([missing.status, missing.body.error.message]).to.deep.equal([404, 'User not found']);
  });

  it('a user read by id never reads `publicationState` (users have no drafts)', async () => {
    const me = await get('/api/users/me?publicationState=draft&fields[0]=username').set(bearer(jwt));
    expect([me.status, me.body]).to.deep.equal([200, { id: 1, username: 'alice' }]);
    const one = await get('/api/users/1?publicationState=draft&fields[0]=username').set(bearer(jwt));
    expect([one.status, one.body]).to.deep.equal([200, { id: 1, username: 'alice' }]);
  });
});

describe('REST: a single type’s `_q`', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  it('searches the entry as its filters do: no match is a 404 (Strapi 4.26)', async () => {
    const found = await request(service.app).get('/api/homepage?_q=Welcome&fields[0]=title');
    expect([found.status, found.body.data]).to.deep.equal([
      200,
      { id: 1, attributes: { title: 'Welcome to The Publication' } },
    ]);
    const missed = await request(service.app).get('/api/homepage?_q=zzz');
    expect([missed.status, missed.body.error.name]).to.deep.equal([404, 'NotFoundError']);
    const both = await request(service.app).get('/api/homepage?_q=Welcome&filters[title][$eq]=nomatch');
    expect(both.status).to.equal(404);
  });
});
