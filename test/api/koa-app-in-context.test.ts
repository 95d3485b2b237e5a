// Koa's `ctx.app` in a project's controllers and middlewares: Strapi hands them Koa's application,
// whose `env`, `proxy` and `keys` projects read (`ctx.app.env === 'production'`, signing cookies).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeFiles } from '../helpers/temp-app.js';

const CONTROLLER = `module.exports = {
  hello(ctx) {
    ctx.body = { env: ctx.app.env, proxy: ctx.app.proxy, keys: ctx.app.keys, fromMiddleware: ctx.state.appEnv };
  },
};
`;

const MIDDLEWARE = `module.exports = () => async (ctx, next) => {
  ctx.state.appEnv = ctx.app.env;
  await next();
};
`;

describe("ctx.app in a project's controllers and middlewares (Koa's application)", () => {
  let service: TestService;
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-koa-app-'));
    await writeFiles(appDir, {
      ...NOTE_HELLO_API,
      'config/server.js': "module.exports = () => ({ proxy: true, app: { keys: ['first-key', 'second-key'] } });",
      'config/middlewares.js':
        "module.exports = ['strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::query', 'strapi::body', 'strapi::favicon', 'strapi::public', 'global::app-env'];",
      'src/middlewares/app-env.js': MIDDLEWARE,
      'src/api/note/controllers/note.js': CONTROLLER,
      'src/api/note/routes/hello.js':
        "module.exports = { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello' }] };",
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it('answers env, proxy and keys from NODE_ENV and config/server, in a controller and in a middleware', async () => {
    const res = await request(service.app).get('/api/hello');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const env = process.env.NODE_ENV || 'development';
    expect(res.body).to.deep.equal({ env, proxy: true, keys: ['first-key', 'second-key'], fromMiddleware: env });
  });
});
