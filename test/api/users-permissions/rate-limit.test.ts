import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../../helpers/server.js';

describe('users-permissions: rate limit on auth routes', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({
      config: {
        plugins: {
          'users-permissions': { enabled: true, config: { ratelimit: { enabled: true, max: 3, interval: 60_000 } } },
        },
      },
    });
  });
  after(() => service.close());

  it("answers 429 in Strapi's shape after max attempts, whatever the body says", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await request(service.app)
        .post('/api/auth/local')
        .send({ identifier: `nobody${i}`, password: 'x', email: `random${i}@example.com` });
      expect(res.status).to.equal(400);
    }
    const limited = await request(service.app)
      .post('/api/auth/local')
      .send({ identifier: 'other', password: 'y', email: 'fresh@example.com' });
    expect(limited.status).to.equal(429);
    expect(limited.body).to.deep.equal({
      data: null,
      error: {
        status: 429,
        name: 'RateLimitError',
        message: 'Too many requests, please try again later.',
        details: {},
      },
    });
  });

  it('counts each auth route separately', async () => {
    const res = await request(service.app).post('/api/auth/forgot-password').send({ email: 'a@example.com' });
    expect(res.status).to.equal(200);
  });

  it('is on by default', async () => {
    const defaults = await createTestService({
      config: { plugins: { 'users-permissions': { enabled: true, config: {} } } },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await request(defaults.app).post('/api/auth/local/register').send({})).status);
      expect(statuses.slice(0, 5)).to.deep.equal([400, 400, 400, 400, 400]);
      expect(statuses[5]).to.equal(429);
    } finally {
      await defaults.close();
    }
  });
});
