// `strapi::body` with `includeUnparsed: true`, as projects set it for payment webhooks: a JSON or
// form body keeps the text it was parsed from under koa-body's `Symbol.for('unparsedBody')`, which
// the project requires as `koa-body/unparsed.js` (Strapi brings koa-body; the project does not
// declare it), and checks a signature over it.
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const SECRET = 'whsec_test';
const sign = (raw: string) => createHmac('sha256', SECRET).update(raw).digest('hex');

function project(includeUnparsed: boolean): Record<string, string> {
  return {
    'package.json': JSON.stringify({ name: 'raw-body-webhook', dependencies: {} }),
    'config/middlewares.js': `module.exports = [
  'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::logger', 'strapi::query',
  { name: 'strapi::body', config: { patchKoa: true, multipart: true, includeUnparsed: ${includeUnparsed} } },
  'strapi::session', 'strapi::favicon', 'strapi::public',
];`,
    'src/api/payment/routes/webhook.js': `module.exports = { routes: [
  { method: 'POST', path: '/payments/status', handler: 'webhook.status', config: { auth: false } },
] };`,
    'src/api/payment/controllers/webhook.js': `
const crypto = require('crypto');
const unparsed = require('koa-body/unparsed.js');
module.exports = {
  async status(ctx) {
    const raw = ctx.request.body[unparsed];
    if (typeof raw !== 'string') return ctx.badRequest('no raw body');
    const expected = crypto.createHmac('sha256', '${SECRET}').update(raw).digest('hex');
    if (ctx.request.headers['x-signature'] !== expected) return ctx.badRequest('bad signature');
    ctx.body = { received: ctx.request.body.type, raw };
  },
};`,
  };
}

describe("strapi::body's includeUnparsed: the raw body of a webhook", () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(project(true)) });
  });
  after(() => service.close());

  it('keeps the JSON text as sent beside the parsed body, so its signature checks', async () => {
    const raw = '{"type":"checkout.session.completed",  "data": {"amount": 1.50}}';
    const res = await request(service.app)
      .post('/api/payments/status')
      .set('Content-Type', 'application/json')
      .set('X-Signature', sign(raw))
      .send(raw)
      .expect(200);
    expect(res.body).to.deep.equal({ received: 'checkout.session.completed', raw });
    const tampered = await request(service.app)
      .post('/api/payments/status')
      .set('Content-Type', 'application/json')
      .set('X-Signature', sign(raw))
      .send(raw.replace('1.50', '9.50'))
      .expect(400);
    expect(tampered.body.error.message).to.equal('bad signature');
  });

  it('keeps a form body as sent too', async () => {
    const raw = 'type=refund&amount=3';
    const res = await request(service.app)
      .post('/api/payments/status')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .set('X-Signature', sign(raw))
      .send(raw)
      .expect(200);
    expect(res.body).to.deep.equal({ received: 'refund', raw });
  });

  it('keeps nothing without includeUnparsed, as koa-body', async () => {
    const plain = await createTestService({ appDir: await writeTempProject(project(false)) });
    try {
      const raw = '{"type":"x"}';
      const res = await request(plain.app)
        .post('/api/payments/status')
        .set('Content-Type', 'application/json')
        .set('X-Signature', sign(raw))
        .send(raw)
        .expect(400);
      expect(res.body.error.message).to.equal('no raw body');
    } finally {
      await plain.close();
    }
  });
});
