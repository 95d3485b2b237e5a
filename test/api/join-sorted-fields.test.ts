import { expect } from 'chai';
import request from 'supertest';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';

/**
 * Where Strapi 4.26's list query joins other tables (a sort or a filter through a relation or a
 * component), it selects the entry's own sorted attributes with the `fields` asked for, and answers
 * them. Expected answers are the reference Strapi's on the same seed.
 */
describe('REST fields: the sorted attributes of a joined list', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  const first = async (query: string) => {
    const res = await request(service.app).get(`/api/articles?${query}&pagination[pageSize]=1`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data[0];
  };

  it('a sort through a relation or a component adds the other sorted attributes of the entry', async () => {
    expect(await first('fields[0]=title&sort[0]=author.name&sort[1]=views')).to.deep.equal({
      id: 11,
      attributes: { title: 'Baking Bread at Home', views: '3001358027' },
    });
    expect(await first('fields[0]=title&sort[0]=seo.metaTitle&sort[1]=views:desc')).to.deep.equal({
      id: 40,
      attributes: { title: 'Last Article Standing', views: '3004938280' },
    });
  });

  it('so does a filter through a relation', async () => {
    expect(await first('fields[0]=title&sort=views&filters[author][name][$contains]=a')).to.deep.equal({
      id: 1,
      attributes: { title: 'Getting Started with Strapi', views: '3000123457' },
    });
  });

  it('without a join, or sorting only by relations and id, the fields are the ones asked for', async () => {
    expect(await first('fields[0]=title&sort=views')).to.deep.equal({
      id: 1,
      attributes: { title: 'Getting Started with Strapi' },
    });
    expect(await first('fields[0]=title&sort=author.name')).to.deep.equal({
      id: 11,
      attributes: { title: 'Baking Bread at Home' },
    });
    expect(await first('fields[0]=title&sort[0]=id:desc&sort[1]=author.name')).to.deep.equal({
      id: 40,
      attributes: { title: 'Last Article Standing' },
    });
    const one = await request(service.app).get('/api/articles/1?fields[0]=title&sort[0]=views&sort[1]=author.name');
    expect(one.body.data).to.deep.equal({ id: 1, attributes: { title: 'Getting Started with Strapi' } });
  });
});
