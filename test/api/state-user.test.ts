// `ctx.state.user` of a request with a user's JWT, as Strapi v4's users-permissions strategy sets
// it (`fetchAuthenticatedUser`: the query engine's row, private fields included, with its role
// populated): app code reads `ctx.state.user.role.type` to decide, in controllers and policies.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const FILES: Record<string, string> = {
  'config/permissions.json': json({ authenticated: ['api::desk.desk.whoami', 'api::desk.desk.find'] }),
  'src/extensions/users-permissions/content-types/user/schema.json': json({
    kind: 'collectionType',
    collectionName: 'up_users',
    info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
    options: { draftAndPublish: false },
    attributes: {
      username: { type: 'string', minLength: 3, unique: true, required: true },
      email: { type: 'email', minLength: 6, required: true },
      provider: { type: 'string' },
      password: { type: 'password', minLength: 6, private: true },
      resetPasswordToken: { type: 'string', private: true },
      confirmationToken: { type: 'string', private: true },
      confirmed: { type: 'boolean', default: false },
      blocked: { type: 'boolean', default: false },
      role: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.role', inversedBy: 'users' },
      nickname: { type: 'string', private: true },
      desks: { type: 'relation', relation: 'oneToMany', target: 'api::desk.desk' },
    },
  }),
  'src/api/desk/content-types/desk/schema.json': json({
    kind: 'collectionType',
    collectionName: 'desks',
    info: { singularName: 'desk', pluralName: 'desks', displayName: 'Desk' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' } },
  }),
  'src/api/desk/controllers/desk.js': `
const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::desk.desk', () => ({
  async whoami(ctx) {
    const user = ctx.state.user;
    return {
      keys: Object.keys(user).sort(),
      role: user.role,
      hashed: typeof user.password === 'string' && user.password !== 'Password123',
      same: ctx.state.auth.credentials === user,
    };
  },
}));
`,
  'src/api/desk/policies/authenticated-only.js': `
module.exports = (policyContext) => policyContext.state.user.role.type === 'authenticated';
`,
  'src/api/desk/routes/desk.js': `
const { createCoreRouter } = require('@strapi/strapi').factories;
module.exports = createCoreRouter('api::desk.desk', { config: { find: { policies: ['authenticated-only'] } } });
`,
  'src/api/desk/routes/01-whoami.js': `
module.exports = { routes: [{ method: 'GET', path: '/whoami', handler: 'desk.whoami' }] };
`,
};

describe('ctx.state.user of a JWT request', () => {
  let service: TestService;
  let jwt = '';
  const api = () => request(service.app);

  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(FILES) });
    const res = await api()
      .post('/api/auth/local/register')
      .send({ username: 'ada', email: 'ada@example.com', password: 'Password123' })
      .expect(200);
    jwt = res.body.jwt;
  });
  after(() => service.close());

  it("is the user's row with private fields and its role, no other relation; ctx.state.auth.credentials is it", async () => {
    const res = await api().get('/api/whoami').set('authorization', `Bearer ${jwt}`).expect(200);
    expect(res.body.keys).to.deep.equal([
      'blocked',
      'confirmationToken',
      'confirmed',
      'createdAt',
      'email',
      'id',
      'nickname',
      'password',
      'provider',
      'resetPasswordToken',
      'role',
      'updatedAt',
      'username',
    ]);
    expect(res.body.role).to.deep.include({
      id: 1,
      name: 'Authenticated',
      description: 'Default role given to authenticated user.',
      type: 'authenticated',
    });
    expect(res.body.hashed).to.equal(true);
    expect(res.body.same).to.equal(true);
  });

  it('lets a policy read policyContext.state.user.role.type', async () => {
    await api().get('/api/desks').set('authorization', `Bearer ${jwt}`).expect(200);
  });
});
