// A Strapi project with no `src/api/` yet (a new project, or one serving only users-permissions):
// Strapi starts it, so the service does too; its users sign up and read themselves, and its bootstrap runs.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

describe('a Strapi project without src/api', () => {
  it('starts: users-permissions serves, the bootstrap runs, no api route exists', async () => {
    const appDir = await writeTempProject({
      'package.json': JSON.stringify({ name: 'auth-only', dependencies: { '@strapi/strapi': '4.25.23' } }),
      'config/server.js': `module.exports = ({ env }) => ({ host: env('HOST', '0.0.0.0'), port: env.int('PORT', 1337) });`,
      'src/index.js': `module.exports = { bootstrap({ strapi }) { strapi.store.set({ type: 'core', name: 'auth-only', key: 'booted', value: true }); } };`,
    });
    const service = await createTestService({ appDir });
    try {
      const registered = await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 'solo', email: 'solo@example.org', password: 'Password123!' })
        .expect(200);
      const me = await request(service.app)
        .get('/api/users/me')
        .set('Authorization', `Bearer ${registered.body.jwt}`)
        .expect(200);
      expect(me.body).to.include({ username: 'solo' });
      await request(service.app).get('/api/articles').expect(404);
      const booted = await service.context.connection.db
        ?.collection('strapi_core_store_settings')
        .findOne({ key: 'core_auth-only_booted' });
      expect(booted?.value).to.equal(true);
    } finally {
      await service.close();
    }
  });

  it('a directory that is no project at all still fails start-up saying so', async () => {
    const appDir = await writeTempProject({ 'package.json': JSON.stringify({ name: 'not-strapi', dependencies: {} }) });
    const failed = await createTestService({ appDir }).catch((err: Error) => err);
    expect(failed).to.be.instanceOf(Error);
    expect((failed as Error).message).to.match(/no schemas\/ \(or Strapi src\/api\/\) directory found$/);
  });
});
