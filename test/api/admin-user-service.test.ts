// `strapi.service('admin::user')` as projects seed their admin account from bootstrap: exists,
// create (password hashed, e-mail lower-cased, roles left out: no admin roles here), sanitizeUser,
// findOne, update, count, deleteById; an unknown method named in its error. The content API still
// never reads admin users.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempApp } from '../helpers/temp-app.js';

const INDEX = `module.exports = {
  async bootstrap({ strapi }) {
    const admins = strapi.service('admin::user');
    const attributes = { firstname: 'Ada', lastname: 'Admin', email: 'Ada@Example.com', password: 'Secret-123', roles: [1], isActive: true };
    if (!(await admins.exists({ email: 'ada@example.com' }))) await admins.create(attributes);
    strapi.server.routes([
      {
        method: 'GET',
        path: '/api/seeded-admin',
        config: { auth: false },
        handler: async () => {
          const stored = await strapi.db.query('admin::user').findOne({ where: { email: 'ada@example.com' }, select: ['id', 'password'] });
          const user = await admins.findOne(stored.id);
          await admins.update(stored.id, { lastname: 'Lovelace' });
          let unknown;
          try { admins.getSuperAdmin(); } catch (err) { unknown = err.message; }
          return {
            exists: await admins.exists({ email: 'ada@example.com' }),
            count: await admins.count(),
            hashed: stored.password !== 'Secret-123' && stored.password.startsWith('$2'),
            sanitized: admins.sanitizeUser(user),
            updated: (await admins.findOne(stored.id)).lastname,
            unknown,
          };
        },
      },
    ]);
  },
};
`;

describe("strapi.service('admin::user') for an app's bootstrap", () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({ appDir: await writeTempApp({ files: { 'src/index.js': INDEX } }) });
  });
  after(() => service.close());

  it('creates the admin once with a hashed password, and answers without its secrets', async () => {
    const { body } = await request(service.app).get('/api/seeded-admin').expect(200);
    expect(body).to.include({ exists: true, count: 1, hashed: true, updated: 'Lovelace' });
    expect(body.sanitized).to.include({ firstname: 'Ada', email: 'ada@example.com', isActive: true });
    expect(body.sanitized).to.not.have.any.keys('password', 'roles', 'registrationToken', 'resetPasswordToken');
    expect(body.unknown).to.match(/admin::user.*getSuperAdmin|getSuperAdmin.*admin::user/);
  });
});
