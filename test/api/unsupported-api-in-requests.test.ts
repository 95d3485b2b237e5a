// A controller reaching what the service does not offer (`strapi.db.connection`'s raw SQL, as cart
// and payment controllers written for PostgreSQL do): uncaught, Strapi's 500; caught and answered
// as the body (`ctx.body = err`), the client reads which API it was, not a bare error name.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeTempProject } from '../helpers/temp-app.js';

const CONTROLLER = `
module.exports = {
  async hello(ctx) {
    if (ctx.query.caught) {
      try {
        await strapi.db.connection.raw('SELECT quantity FROM carts WHERE customer_id = 1');
      } catch (err) {
        ctx.body = err;
      }
      return;
    }
    await strapi.db.connection.raw('SELECT 1');
  },
};
`;

describe('strapi.db.connection reached while serving a request', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({
      appDir: await writeTempProject({
        'package.json': JSON.stringify({ name: 'raw-sql-cart', dependencies: {} }),
        ...NOTE_HELLO_API,
        'src/api/note/controllers/note.js': CONTROLLER,
        'src/api/note/routes/hello.js': `module.exports = { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello', config: { auth: false } }] };`,
      }),
    });
  });
  after(() => service.close());

  it('uncaught: a 500 in Strapi’s shape, the reason kept for the log', async () => {
    const res = await request(service.app).get('/api/hello').expect(500);
    expect(res.body.error).to.deep.equal({
      status: 500,
      name: 'InternalServerError',
      message: 'Internal Server Error',
    });
  });

  it('caught and answered by the app: the body names the API and what the service offers instead', async () => {
    const res = await request(service.app).get('/api/hello?caught=1').expect(200);
    expect(res.body).to.deep.equal({
      name: 'UnsupportedStrapiApi',
      message:
        'strapi.db.connection is not supported by Content Service: it offers query(uid), lifecycles, transaction(cb), inTransaction(), metadata',
    });
  });
});
