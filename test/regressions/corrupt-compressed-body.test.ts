// Regression: a body sent with `Content-Encoding: gzip` (or deflate) that does not inflate answered
// 500: body-parser raises a 400 http error the error middleware did not know. Every 4xx http error
// of Express or body-parser is now answered with its status in the error shape.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';

describe('regression: a compressed body that does not inflate', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
  });
  after(() => service.close());

  it('answers 400 BadRequestError for gzip and deflate bodies that are not', async () => {
    for (const encoding of ['gzip', 'deflate']) {
      const res = await request(service.app)
        .post('/api/auth/local')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', encoding)
        .send('{"identifier":"x"}');
      expect(res.status, encoding).to.equal(400);
      expect(res.body, encoding).to.deep.equal({
        data: null,
        error: { status: 400, name: 'BadRequestError', message: 'incorrect header check', details: {} },
      });
    }
  });
});
