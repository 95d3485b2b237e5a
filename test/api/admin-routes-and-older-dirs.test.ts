// Two things projects read in register that Strapi 4.0-4.26 projects rely on:
// - `strapi.admin.routes.admin.routes`, which projects search to add a middleware to the admin's
//   sign-in (SSO only): an empty table here, as this service serves no admin route;
// - `strapi.dirs.public` and the flat layout of Strapi 4.0-4.2 (`dirs.root`, `dirs.src`...), read by
//   the copies of that version's local upload provider projects keep in providers/.
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeTempProject } from '../helpers/temp-app.js';

describe('strapi.admin.routes and the flat strapi.dirs of Strapi 4.0-4.2', () => {
  let service: TestService;
  let appDir: string;
  before(async () => {
    appDir = await writeTempProject({
      ...NOTE_HELLO_API,
      'src/index.js': `module.exports = {
  register({ strapi }) {
    const adminRoutes = strapi.admin.routes.admin.routes;
    const login = adminRoutes.find((route) => route.method === 'POST' && route.path === '/login');
    if (login) login.config.middlewares.push('global::allowedLocalAuth');
    strapi.config.set('seen', { type: strapi.admin.routes.admin.type, count: adminRoutes.length, login: login ?? null });
  },
};
`,
      'src/api/note/routes/hello.js':
        "module.exports = { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello', config: { auth: false } }] };",
      'src/api/note/controllers/note.js': `const path = require('path');
module.exports = {
  hello(ctx) {
    const { dirs } = strapi;
    ctx.body = {
      seen: strapi.config.get('seen'),
      uploads: path.resolve(dirs.public, 'uploads'),
      flat: [dirs.root, dirs.src, dirs.api, dirs.components, dirs.extensions, dirs.policies, dirs.middlewares, dirs.config],
      current: [dirs.app.root, dirs.dist.src, dirs.static.public],
    };
  },
};
`,
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it('register finds no admin route to change (none is served) and goes on; dirs has both layouts', async () => {
    const res = await request(service.app).get('/api/hello').expect(200);
    const src = join(appDir, 'src');
    const publicDir = join(appDir, 'public');
    expect(res.body).to.deep.equal({
      seen: { type: 'admin', count: 0, login: null },
      uploads: join(publicDir, 'uploads'),
      flat: [
        appDir,
        src,
        join(src, 'api'),
        join(src, 'components'),
        join(src, 'extensions'),
        join(src, 'policies'),
        join(src, 'middlewares'),
        join(appDir, 'config'),
      ],
      current: [appDir, src, publicDir],
    });
  });

  it('the rest of strapi.admin still says what it offers', async () => {
    const failing = await writeTempProject({
      ...NOTE_HELLO_API,
      'src/index.js': 'module.exports = { register({ strapi }) { strapi.admin.services.passport.init(); } };',
    });
    const failure = await createTestService({ appDir: failing }).then(
      async (started) => {
        await started.close();
        return undefined;
      },
      (err: Error) => err.message,
    );
    expect(failure).to.match(
      /strapi\.admin\.services\.passport is not supported by Content Service: it offers permission/,
    );
  });
});
