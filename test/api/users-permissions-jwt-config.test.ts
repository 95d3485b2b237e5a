// users-permissions' config in config/plugins.{js,ts}: `jwtSecret` signs the JWTs, `jwt.expiresIn`
// sets their expiry, and the app's code reads the plugin's config as Strapi's plugin container holds
// it: `strapi.config.get('plugin.users-permissions.jwtSecret')`, `strapi.plugin(...).config(...)`,
// with Strapi's defaults (JWT_SECRET, '30d') when the app gives none.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import jsonwebtoken from 'jsonwebtoken';
import request from 'supertest';
import { createTestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeFiles } from '../helpers/temp-app.js';

const CONTROLLER = `module.exports = {
  hello(ctx) {
    ctx.body = {
      fromConfig: strapi.config.get('plugin.users-permissions.jwtSecret'),
      fromPlugin: strapi.plugin('users-permissions').config('jwtSecret'),
      expiresIn: strapi.plugin('users-permissions').config('jwt.expiresIn'),
    };
  },
};
`;

async function project(pluginsFile: Record<string, string>): Promise<string> {
  const appDir = await mkdtemp(join(tmpdir(), 'cs-up-jwt-config-'));
  await writeFiles(appDir, {
    ...NOTE_HELLO_API,
    ...pluginsFile,
    'src/api/note/controllers/note.js': CONTROLLER,
    'src/api/note/routes/hello.js':
      "module.exports = { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello' }] };",
  });
  return appDir;
}

/** Signs a user up and answers the JWT's payload, verified with `secret`. */
async function signedUp(app: Parameters<typeof request>[0], secret: string): Promise<jsonwebtoken.JwtPayload> {
  const res = await request(app)
    .post('/api/auth/local/register')
    .send({ username: 'jwt-user', email: 'jwt@example.org', password: 'Password123!' });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return jsonwebtoken.verify(res.body.jwt as string, secret) as jsonwebtoken.JwtPayload;
}

describe("users-permissions' jwtSecret and jwt.expiresIn from config/plugins", () => {
  it('signs with the configured secret and expiry (config/plugins.ts), which the app code reads back', async () => {
    const appDir = await project({
      'config/plugins.ts': `export default ({ env }) => ({
        'users-permissions': { config: { jwtSecret: env('OWN_JWT_SECRET_UNSET', 'configured-secret'), jwt: { expiresIn: '2h' } } },
      });`,
    });
    const service = await createTestService({ appDir });
    try {
      const payload = await signedUp(service.app, 'configured-secret');
      expect((payload.exp ?? 0) - (payload.iat ?? 0)).to.equal(2 * 3600);
      const res = await request(service.app).get('/api/hello').expect(200);
      expect(res.body).to.deep.equal({
        fromConfig: 'configured-secret',
        fromPlugin: 'configured-secret',
        expiresIn: '2h',
      });
    } finally {
      await service.close();
    }
  });

  it("answers Strapi's defaults without a config: JWT_SECRET and 30 days", async () => {
    const before = process.env.JWT_SECRET;
    process.env.JWT_SECRET = 'secret-from-the-environment';
    try {
      const service = await createTestService({ appDir: await project({}) });
      try {
        const payload = await signedUp(service.app, 'secret-from-the-environment');
        expect((payload.exp ?? 0) - (payload.iat ?? 0)).to.equal(30 * 24 * 3600);
        const res = await request(service.app).get('/api/hello').expect(200);
        expect(res.body).to.deep.equal({
          fromConfig: 'secret-from-the-environment',
          fromPlugin: 'secret-from-the-environment',
          expiresIn: '30d',
        });
      } finally {
        await service.close();
      }
    } finally {
      if (before === undefined) delete process.env.JWT_SECRET;
      else process.env.JWT_SECRET = before;
    }
  });
});
