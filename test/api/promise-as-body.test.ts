// A controller that sets `ctx.body` to a promise it does not await, as strapi-plugin-redirects 1.0.4's
// content-type routes do (`ctx.body = service.find()`): Koa writes such a body as `{}`, as here,
// and when the promise rejects (that plugin's service reads the content manager's services) the
// rejection is logged, never left unhandled to stop the process.
import { expect } from 'chai';
import request from 'supertest';
import { capturingLogger } from '../helpers/log-capture.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const FILES = {
  'src/api/page/content-types/page/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'pages',
    info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
    attributes: { title: { type: 'string' } },
  }),
  'src/api/page/routes/promises.js': `module.exports = { routes: [
    { method: 'GET', path: '/promised/:outcome', handler: 'page.promised', config: { auth: false } },
  ] };`,
  'src/api/page/controllers/page.js': `module.exports = require('@strapi/strapi').factories.createCoreController('api::page.page', () => ({
  async promised(ctx) {
    const work = async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (ctx.params.outcome === 'fails') throw new TypeError("Cannot read properties of undefined (reading 'services')");
      return [{ uid: 'api::page.page' }];
    };
    ctx.body = work();
  },
}));`,
};

describe('a promise set as the body and not awaited (strapi-plugin-redirects)', () => {
  let service: TestService;
  let logs: ReturnType<typeof capturingLogger>;
  const unhandled: unknown[] = [];
  const listener = (reason: unknown) => unhandled.push(reason);

  before(async () => {
    process.on('unhandledRejection', listener);
    logs = capturingLogger();
    service = await createTestService({ appDir: await writeTempProject(FILES), logger: logs.logger });
  });
  after(async () => {
    process.off('unhandledRejection', listener);
    await service.close();
  });

  it('is answered as Koa writes it, {}; a rejection is logged, not unhandled', async () => {
    const kept = await request(service.app).get('/api/promised/resolves').expect(200);
    expect(kept.body).to.deep.equal({});
    const failed = await request(service.app).get('/api/promised/fails').expect(200);
    expect(failed.body).to.deep.equal({});
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(unhandled).to.deep.equal([]);
    expect(logs.lines.map((line) => String(line.msg))).to.include('the promise set as the body rejected');
    await request(service.app).get('/api/promised/resolves').expect(200);
  });
});
