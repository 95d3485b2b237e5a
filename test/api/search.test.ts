import { expect } from 'chai';
import request from 'supertest';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { collectionTypeSchema, writeTempApp } from '../helpers/temp-app.js';

/** `_q`, Strapi's search parameter, over HTTP on the demo seed (answers checked against Strapi 4.26). */
describe('REST _q search', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  const get = (path: string) => request(service.app).get(path);
  const ids = async (path: string) => {
    const res = await get(path);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.meta.pagination.total).to.equal(res.body.data.length);
    return res.body.data.map((entry: { id: number }) => entry.id);
  };

  it('finds a substring of any text attribute, the locale included, case-insensitively', async () => {
    // title "ÉTÉ à Paris" and slug "ete-a-paris", in both locales
    expect(await ids('/api/articles?_q=paris&fields[0]=title&locale=all')).to.deep.equal([7, 45]);
    expect(await ids('/api/articles?_q=PARIS&fields[0]=title&locale=all')).to.deep.equal([7, 45]);
    // the enumeration `kind`, combined with filters (AND)
    expect(await ids('/api/articles?_q=news&filters[featured]=true&fields[0]=title&locale=all')).to.deep.equal([
      20, 40,
    ]);
    // `locale` is a searched text attribute of a localized type
    expect(await ids('/api/articles?_q=fr&locale=fr&fields[0]=title')).to.deep.equal([41, 42, 43, 45, 46, 48]);
  });

  it('searches numbers as SQL prints them when the term is a number (a whole float reads 2.0)', async () => {
    expect(await ids('/api/articles?_q=2.0&fields[0]=title')).to.deep.equal([10]);
    expect(await ids('/api/articles?_q=.0&fields[0]=title')).to.deep.equal([10, 20, 40]);
    expect(await ids('/api/articles?_q=13.99&fields[0]=title&locale=all')).to.deep.equal([1, 41]);
    expect(await ids('/api/articles?_q=3000123457&fields[0]=title&locale=all')).to.deep.equal([1, 41]);
    // the id and the floats (3.0, 1.0, 0.0, 10.75) of tags
    expect(await ids('/api/tags?_q=0&fields[0]=name')).to.deep.equal([3, 5, 6, 7, 8, 9, 10]);
    expect(await ids('/api/events?_q=.75&fields[0]=name&publicationState=preview')).to.deep.equal([1, 3, 5, 7, 9]);
  });

  it('matches % and _ literally', async () => {
    expect(await ids('/api/articles?_q=%25&fields[0]=title&locale=all')).to.deep.equal([3, 21, 43, 48]);
    expect(await ids('/api/tags?_q=a_b&fields[0]=name')).to.deep.equal([]);
    expect(await ids('/api/tags?_q=a*b&fields[0]=name')).to.deep.equal([8]);
  });

  it('leaves out passwords and private attributes', async () => {
    expect(await ids('/api/authors?_q=secret&fields[0]=name')).to.deep.equal([]);
    expect(await ids('/api/articles?_q=internal%20note&fields[0]=title')).to.deep.equal([]);
  });

  it('ignores an empty _q, ignores _q on findOne, and rejects a _q that is not a text', async () => {
    expect((await get('/api/articles?_q=&fields[0]=title')).body.meta.pagination.total).to.equal(34);
    const one = await get('/api/articles/1?_q=zzzz&fields[0]=title');
    expect(one.body.data.id).to.equal(1);
    const bad = await get('/api/articles?_q[0]=a');
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.include({ status: 400, name: 'ValidationError', message: 'Invalid parameter _q' });
  });
});

describe('REST _q search on a content-type without text attributes', () => {
  let service: TestService;
  before(async () => {
    const dir = await writeTempApp({
      api: { meter: collectionTypeSchema('meter', 'meters', { value: { type: 'integer' } }) },
      config: { permissions: { public: ['api::meter.meter.find', 'api::meter.meter.create'] } },
    });
    service = await createTestService({ appDir: dir });
    for (const value of [5, 12, 7, 120, 3, 4, 8, 9, 10, 11, 21]) {
      const res = await request(service.app).post('/api/meters').send({ data: { value } });
      expect(res.status).to.equal(200);
    }
  });
  after(() => service.close());

  const ids = async (q: string) => {
    const res = await request(service.app).get(`/api/meters?_q=${q}&pagination[pageSize]=100`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return (res.body.data as Array<{ id: number }>).map((entry) => entry.id);
  };

  it('searches the id and the numbers, and a term no number prints finds nothing', async () => {
    // ids 1..11; values as SQL prints integers
    expect(await ids('1')).to.deep.equal([1, 2, 4, 9, 10, 11]);
    expect(await ids('12')).to.deep.equal([2, 4]);
    expect(await ids('x')).to.deep.equal([]);
    expect(await ids('1x')).to.deep.equal([]);
  });
});
