import { expect } from 'chai';
import request from 'supertest';
import { seedDemoContent } from '../../src/seed/demo-seed.js';
import { createTestService, type TestService } from '../helpers/server.js';

describe('demo content on a first start', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
  });
  after(async () => {
    await service.close();
  });

  it("replays the app's seed.json through the operations into an empty database, once", async function () {
    this.timeout(60_000);
    expect(await seedDemoContent(service)).to.equal(105);
    const res = await request(service.app).get('/api/articles?locale=all&pagination[pageSize]=1');
    expect(res.body.meta.pagination.total).to.equal(40); // 34 published en + 6 published fr (drafts are not live)
    const fr = await request(service.app).get('/api/articles/41?fields[0]=locale&publicationState=preview');
    expect(fr.body.data.attributes.locale).to.equal('fr');
    expect(await seedDemoContent(service)).to.equal(0);
  });
});
