// A project whose users-permissions extension validates bodies with the plugin's own checks,
// `@strapi/plugin-users-permissions/server/controllers/validation/{auth,user}`, without the package
// installed: the service's modules answer with Strapi 4.26's yup schemas, and what they refuse is
// a 400 ValidationError in Strapi's shape (messages as compared with the 4.26.2 package's files).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeFiles } from '../helpers/temp-app.js';
import { bearer } from './users-permissions/helpers.js';

const EXTENSION = `
const auth = require('@strapi/plugin-users-permissions/server/controllers/validation/auth');
const { validateRegisterBody } = require('@strapi/plugin-users-permissions/server/controllers/validation/auth.js');
const user = require('@strapi/plugin-users-permissions/server/controllers/validation/user');

module.exports = (plugin) => {
  const register = plugin.controllers.auth.register;
  plugin.controllers.auth.register = async (ctx) => {
    await validateRegisterBody(ctx.request.body);
    ctx.request.body.username = ctx.request.body.username.trim();
    return register(ctx);
  };
  const update = plugin.controllers.user.update;
  plugin.controllers.user.update = async (ctx) => {
    await user.validateUpdateUserBody(ctx.request.body);
    return update(ctx);
  };
  plugin.controllers.auth.check = async (ctx) => {
    const validate = { ...auth, ...user }[ctx.params.name];
    ctx.body = { valid: await validate(ctx.request.body) };
  };
  plugin.routes['content-api'].routes.push({
    method: 'POST',
    path: '/check/:name',
    handler: 'auth.check',
    config: { prefix: '', auth: false },
  });
  return plugin;
};
`;

const issue = (path: string[], message: string) => ({ path, message, name: 'ValidationError' });

describe('@strapi/plugin-users-permissions/server/controllers/validation required by a project that does not install it', () => {
  let service: TestService;
  const api = () => request(service.app);
  const check = (name: string, body: unknown) =>
    api()
      .post(`/api/check/${name}`)
      .send(body as object);
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-up-validation-'));
    await writeFiles(appDir, {
      'package.json': JSON.stringify({ name: 'no-deps', dependencies: {} }),
      ...NOTE_HELLO_API,
      'src/extensions/users-permissions/strapi-server.js': EXTENSION,
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it("runs validateRegisterBody in the app's register action: every issue at once, a 400 in Strapi's shape", async () => {
    const refused = await api().post('/api/auth/local/register').send({ email: 'not-mail', password: 5 }).expect(400);
    expect(refused.body).to.deep.equal({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: '3 errors occurred',
        details: {
          errors: [
            issue(['email'], 'email must be a valid email'),
            issue(['username'], 'username is a required field'),
            issue(['password'], 'password must be a `string` type, but the final value was: `5`.'),
          ],
        },
      },
    });
    const res = await api()
      .post('/api/auth/local/register')
      .send({ username: ' ann ', email: 'ann@example.com', password: 'Password123!' })
      .expect(200);
    expect(res.body.user).to.include({ username: 'ann', email: 'ann@example.com' });
  });

  it("runs validateUpdateUserBody in the app's update action, which then updates as before", async () => {
    const { accessKey } = await createApiToken(service.context, { name: 'admin', type: 'full-access' });
    const refused = await api().put('/api/users/1').set(bearer(accessKey)).send({ email: 'nope' }).expect(400);
    expect(refused.body.error).to.deep.equal({
      status: 400,
      name: 'ValidationError',
      message: 'email must be a valid email',
      details: { errors: [issue(['email'], 'email must be a valid email')] },
    });
    const noRole = await api()
      .put('/api/users/1')
      .set(bearer(accessKey))
      .send({ role: { connect: [], disconnect: [{ id: 1 }] } })
      .expect(400);
    expect(noRole.body.error.details.errors).to.deep.equal([issue(['role', 'disconnect'], 'Cannot remove role')]);
    const unchanged = await api().get('/api/users/1').set(bearer(accessKey)).expect(200);
    expect(unchanged.body.email).to.equal('ann@example.com');
    const updated = await api()
      .put('/api/users/1')
      .set(bearer(accessKey))
      .send({ email: 'ann@example.org' })
      .expect(200);
    expect(updated.body.email).to.equal('ann@example.org');
  });

  it('has each auth validator of Strapi 4.26 with its schema: unknown keys refused where Strapi refuses them', async () => {
    const cases: [string, unknown, unknown][] = [
      ['validateCallbackBody', { identifier: 'ann', password: 'x', extra: 1 }, null],
      ['validateCallbackBody', { identifier: 'ann' }, [issue(['password'], 'password is a required field')]],
      ['validateSendEmailConfirmationBody', { email: 'x' }, [issue(['email'], 'email must be a valid email')]],
      ['validateEmailConfirmationBody', {}, [issue(['confirmation'], 'confirmation is a required field')]],
      [
        'validateForgotPasswordBody',
        { email: 'ann@example.com', extra: 1 },
        [issue([], 'this field has unspecified keys: extra')],
      ],
      [
        'validateResetPasswordBody',
        { password: 'a', passwordConfirmation: 'a' },
        [issue(['code'], 'code is a required field')],
      ],
      [
        'validateChangePasswordBody',
        { password: 'a', passwordConfirmation: 'b', currentPassword: 'c', x: 1 },
        [issue(['passwordConfirmation'], 'Passwords do not match'), issue([], 'this field has unspecified keys: x')],
      ],
    ];
    for (const [name, body, errors] of cases) {
      const res = await check(name, body);
      if (errors === null) expect(res.body, name).to.deep.equal({ valid: body });
      else expect([res.status, res.body.error?.details?.errors], name).to.deep.equal([400, errors]);
    }
  });

  it('has the user validators: a new user needs a role, given as an id or connected', async () => {
    const created = await check('validateCreateUserBody', { email: 'x', username: '', role: { connect: [] } }).expect(
      400,
    );
    expect(created.body.error.message).to.equal('5 errors occurred');
    expect(created.body.error.details.errors).to.deep.equal([
      issue(['email'], 'email must be a valid email'),
      issue(['username'], 'username must be at least 1 characters'),
      issue(['username'], 'username is a required field'),
      issue(['password'], 'password is a required field'),
      issue(['role', 'connect'], 'Users must have a role'),
    ]);
    const valid = { email: 'bo@example.com', username: 'bo', password: 'p', role: 2 };
    expect((await check('validateCreateUserBody', valid).expect(200)).body).to.deep.equal({ valid });
    const moved = { role: { connect: [{ id: 2 }], disconnect: [{ id: 1 }] } };
    expect((await check('validateUpdateUserBody', moved).expect(200)).body).to.deep.equal({ valid: moved });
    // Strapi 4.26 fails with a TypeError (a 500) on a disconnect without connect; here the missing field is named
    const partial = await check('validateUpdateUserBody', { role: { disconnect: [{ id: 1 }] } }).expect(400);
    expect(partial.body.error.details.errors).to.deep.equal([
      issue(['role', 'connect'], 'role.connect is a required field'),
    ]);
  });
});
