// What `ctx.throw` in a project's controller answers, as Strapi 4.26's error middleware renders it:
// `ctx.throw(500, err)` on a caught error (a common catch-all in v4 controllers) only stamps a
// status on the app's own error, so Strapi answers its generic 500 and logs it, never the error's
// name and message; `ctx.throw(500, 'message')` is an http-errors error, shown as it is; a client
// status shows the error's own message.
import { expect } from 'chai';
import request from 'supertest';
import { capturingLogger } from '../helpers/log-capture.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const FILES = {
  'src/api/order/content-types/order/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'orders',
    info: { singularName: 'order', pluralName: 'orders', displayName: 'Order' },
    options: { draftAndPublish: false },
    attributes: { total: { type: 'integer' } },
  }),
  'src/api/order/routes/checks.js': `module.exports = { routes: [
    { method: 'POST', path: '/orders/checkout', handler: 'order.checkout', config: { auth: false } },
    { method: 'POST', path: '/orders/gateway', handler: 'order.gateway', config: { auth: false } },
    { method: 'POST', path: '/orders/missing', handler: 'order.missing', config: { auth: false } },
  ] };`,
  'src/api/order/controllers/order.js': `module.exports = require('@strapi/strapi').factories.createCoreController('api::order.order', ({ strapi }) => ({
  async checkout(ctx) {
    try {
      const body = ctx.request.body.data;
      return body.items.length;
    } catch (err) {
      ctx.throw(500, err);
    }
  },
  async gateway(ctx) {
    ctx.throw(500, 'Payment gateway unavailable');
  },
  async missing(ctx) {
    ctx.throw(404, new Error('No such order'));
  },
}));`,
};

describe('ctx.throw in a controller (Strapi 4.26 error answers)', () => {
  let service: TestService;
  const { logger, lines } = capturingLogger();
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(FILES), logger });
  });
  after(() => service.close());

  it("answers ctx.throw(500, err) with Strapi's generic 500, the error logged and not shown", async () => {
    const res = await request(service.app).post('/api/orders/checkout').send({}).expect(500);
    expect(res.body).to.deep.equal({
      data: null,
      error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error' },
    });
    expect(JSON.stringify(res.body)).not.to.contain('TypeError');
    expect(lines.some((line) => /reading 'items'/.test(JSON.stringify(line)))).to.equal(true);
  });

  it("shows the message of ctx.throw(500, 'message'), an http-errors error", async () => {
    const res = await request(service.app).post('/api/orders/gateway').send({}).expect(500);
    expect(res.body.error).to.deep.include({
      status: 500,
      name: 'InternalServerError',
      message: 'Payment gateway unavailable',
    });
  });

  it("shows the app's error under a client status, as http-errors exposes it", async () => {
    const res = await request(service.app).post('/api/orders/missing').send({}).expect(404);
    expect(res.body.error).to.deep.include({ status: 404, name: 'Error', message: 'No such order' });
  });
});
