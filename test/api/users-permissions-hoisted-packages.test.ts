// A users-permissions extension signing users in by a PIN of its own: it checks the password the
// plugin stored and the PIN with `bcryptjs` and issues the token with `jsonwebtoken`, both required without being declared, as
// every Strapi install has them through users-permissions. The service's copies answer, and the
// token it issues is one the service accepts.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeFiles } from '../helpers/temp-app.js';

const EXTENSION = `
const bcrypt = require('bcryptjs');
const jwt = require('jsonwebtoken');
const { errors } = require('@strapi/utils');

module.exports = (plugin) => {
  plugin.controllers.auth.setPin = async (ctx) => {
    const { email, password, pin } = ctx.request.body;
    const user = await strapi.db.query('plugin::users-permissions.user').findOne({ where: { email } });
    if (!user || !(await bcrypt.compare(String(password), user.password))) return ctx.unauthorized('Wrong password');
    const pinHash = await bcrypt.hash(String(pin), 10);
    await strapi.db.query('plugin::users-permissions.user').update({ where: { id: user.id }, data: { pinHash } });
    ctx.send({ ok: true });
  };
  plugin.controllers.auth.pinLogin = async (ctx) => {
    const { email, pin } = ctx.request.body;
    const user = await strapi.db.query('plugin::users-permissions.user').findOne({ where: { email } });
    if (!user || !user.pinHash || !(await bcrypt.compare(String(pin), user.pinHash))) {
      throw new errors.ValidationError('Invalid email or PIN');
    }
    const secret = strapi.config.get('plugin.users-permissions.jwtSecret');
    ctx.send({ jwt: jwt.sign({ id: user.id }, secret, { expiresIn: '1h' }) });
  };
  plugin.contentTypes.user.schema.attributes.pinHash = { type: 'string', private: true };
  plugin.routes['content-api'].routes.push(
    { method: 'POST', path: '/auth/pin', handler: 'auth.setPin', config: { prefix: '', auth: false } },
    { method: 'POST', path: '/auth/pin-login', handler: 'auth.pinLogin', config: { prefix: '', auth: false } },
  );
  return plugin;
};
`;

describe('bcryptjs and jsonwebtoken required by a users-permissions extension that does not install them', () => {
  let service: TestService;
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-up-hoisted-'));
    await writeFiles(appDir, {
      'package.json': JSON.stringify({ name: 'pin-sign-in', dependencies: {} }),
      ...NOTE_HELLO_API,
      'src/extensions/users-permissions/strapi-server.js': EXTENSION,
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it('resolve to the service’s copies: the PIN checks, and the token issued signs the user in', async () => {
    await request(service.app)
      .post('/api/auth/local/register')
      .send({ username: 'pin', email: 'pin@example.org', password: 'Password123!' })
      .expect(200);
    await request(service.app)
      .post('/api/auth/pin')
      .send({ email: 'pin@example.org', password: 'Password124!', pin: 4321 })
      .expect(401);
    const set = await request(service.app)
      .post('/api/auth/pin')
      .send({ email: 'pin@example.org', password: 'Password123!', pin: 4321 });
    expect(set.status, JSON.stringify(set.body)).to.equal(200);

    const login = await request(service.app).post('/api/auth/pin-login').send({ email: 'pin@example.org', pin: 4321 });
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    const me = await request(service.app).get('/api/users/me').set('Authorization', `Bearer ${login.body.jwt}`);
    expect(me.status).to.equal(200);
    expect(me.body).to.include({ username: 'pin', email: 'pin@example.org' });
    expect(me.body).to.not.have.property('pinHash');
  });

  it('a wrong PIN is the extension’s 400, and signs nobody in', async () => {
    const res = await request(service.app).post('/api/auth/pin-login').send({ email: 'pin@example.org', pin: 1111 });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ name: 'ValidationError', message: 'Invalid email or PIN' });
    expect(res.body).to.not.have.property('jwt');
  });
});
