// strapi.config answers Strapi 4.26's defaults (its app-configuration `defaultConfig`) where the
// project's files say nothing: `api.rest.prefix` (the prefix in use: `/api`, or config/api's own),
// `server.proxy`, `server.cron.enabled`, `server.admin.autoOpen`, `server.dirs.public`, through
// `get` and as properties (`strapi.config.api.rest.prefix`). A users-permissions bootstrap copied into
// an extension joins `strapi.config.get('api.rest.prefix')` into URLs and failed to start without it.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeTempProject } from '../helpers/temp-app.js';

const CONTROLLER = `module.exports = {
  hello(ctx) {
    const at = (path) => strapi.config.get(path);
    ctx.body = {
      prefix: [at('api.rest.prefix'), strapi.config.api.rest.prefix],
      maxLimit: at('api.rest.maxLimit'),
      server: [at('server.proxy'), at('server.cron.enabled'), at('server.admin.autoOpen'), at('server.dirs.public')],
    };
  },
};`;

const project = (files: Record<string, string>) =>
  writeTempProject({
    ...NOTE_HELLO_API,
    'src/api/note/routes/hello.js':
      "module.exports = { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello', config: { auth: false } }] };",
    'src/api/note/controllers/note.js': CONTROLLER,
    ...files,
  });

describe("strapi.config with Strapi's defaults", () => {
  let service: TestService | undefined;
  afterEach(() => service?.close());

  it('answers them where the files say nothing', async () => {
    service = await createTestService({
      appDir: await project({ 'config/api.js': 'module.exports = { rest: { maxLimit: 50 } };' }),
    });
    const res = await request(service.app).get('/api/hello').expect(200);
    expect(res.body).to.deep.equal({
      prefix: ['/api', '/api'],
      maxLimit: 50,
      server: [false, false, false, './public'],
    });
  });

  it("keeps the files' own values", async () => {
    service = await createTestService({
      appDir: await project({
        'config/api.js': "module.exports = { rest: { prefix: '/v2' } };",
        'config/server.js':
          "module.exports = { proxy: true, cron: { enabled: true, tasks: {} }, dirs: { public: './static' } };",
      }),
    });
    const res = await request(service.app).get('/v2/hello').expect(200);
    expect(res.body).to.deep.equal({ prefix: ['/v2', '/v2'], server: [true, true, false, './static'] });
  });
});
