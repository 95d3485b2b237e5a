import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../../helpers/server.js';
import { bearer, login, registerSeedUsers } from './helpers.js';

/**
 * Which error Strapi 4.26 reports when a register, reset or change-password body is wrong in
 * several ways: the controller's checks (presence, e-mail form, matching passwords, unknown keys),
 * then the look-ups (name taken, reset code, current password), and only then the user's own
 * length rules. Answers as recorded from Strapi 4.26.2.
 */
describe('users-permissions: the order of auth errors', () => {
  let service: TestService;
  let jwt: string;
  before(async () => {
    service = await createTestService({
      config: { plugins: { 'users-permissions': { enabled: true, config: { ratelimit: { enabled: false } } } } },
    });
    await registerSeedUsers(service.app);
    jwt = await login(service.app, 'alice', 'Password123!');
  });
  after(() => service.close());

  const issue = (path: string[], message: string) => ({ path, message, name: 'ValidationError' });
  const failure = (message: string, errors?: ReturnType<typeof issue>[], name = 'ValidationError') => ({
    data: null,
    error: { status: 400, name, message, details: errors ? { errors } : {} },
  });

  async function post(path: string, body: object, headers: Record<string, string> = {}) {
    const res = await request(service.app).post(path).set(headers).send(body);
    return { status: res.status, body: res.body as unknown };
  }

  it('register: a malformed e-mail alone, before the lengths of username and password', async () => {
    const res = await post('/api/auth/local/register', { username: 'ne', email: 'x', password: 'short' });
    expect(res).to.deep.equal({
      status: 400,
      body: failure('email must be a valid email', [issue(['email'], 'email must be a valid email')]),
    });
  });

  it('register: a taken e-mail before a too short username or password', async () => {
    const res = await post('/api/auth/local/register', {
      username: 'al',
      email: 'alice@users.example.com',
      password: '1',
    });
    expect(res).to.deep.equal({
      status: 400,
      body: failure('Email or Username are already taken', undefined, 'ApplicationError'),
    });
  });

  it('register: the lengths once the rest is right (no minimum on the e-mail)', async () => {
    const res = await post('/api/auth/local/register', { username: 'al', email: 'a@b.c', password: 'Password123!' });
    expect(res).to.deep.equal({
      status: 400,
      body: failure('username must be at least 3 characters', [
        issue(['username'], 'username must be at least 3 characters'),
      ]),
    });
  });

  it('reset-password: passwords that differ, then the code, before the length', async () => {
    const differ = await post('/api/auth/reset-password', { code: 'bad', password: 'a', passwordConfirmation: 'b' });
    expect(differ).to.deep.equal({ status: 400, body: failure('Passwords do not match') });
    const badCode = await post('/api/auth/reset-password', { code: 'bad', password: 'a', passwordConfirmation: 'a' });
    expect(badCode).to.deep.equal({ status: 400, body: failure('Incorrect code provided') });
  });

  it('reset-password and forgot-password: unknown keys are one issue on the body, after the fields', async () => {
    const reset = await post('/api/auth/reset-password', { password: 'a', extra: 1 });
    expect(reset).to.deep.equal({
      status: 400,
      body: failure('3 errors occurred', [
        issue(['passwordConfirmation'], 'passwordConfirmation is a required field'),
        issue(['code'], 'code is a required field'),
        issue([], 'this field has unspecified keys: extra'),
      ]),
    });
    const forgot = await post('/api/auth/forgot-password', { email: 'bad', extra: 1 });
    expect(forgot).to.deep.equal({
      status: 400,
      body: failure('2 errors occurred', [
        issue(['email'], 'email must be a valid email'),
        issue([], 'this field has unspecified keys: extra'),
      ]),
    });
  });

  it('change-password: the mismatch with the missing fields, the current password before the length', async () => {
    const mismatch = await post('/api/auth/change-password', { password: 'a', passwordConfirmation: 'b' }, bearer(jwt));
    expect(mismatch).to.deep.equal({
      status: 400,
      body: failure('2 errors occurred', [
        issue(['passwordConfirmation'], 'Passwords do not match'),
        issue(['currentPassword'], 'currentPassword is a required field'),
      ]),
    });
    const wrongCurrent = await post(
      '/api/auth/change-password',
      { currentPassword: 'wrong', password: 'a', passwordConfirmation: 'a' },
      bearer(jwt),
    );
    expect(wrongCurrent).to.deep.equal({ status: 400, body: failure('The provided current password is invalid') });
    const short = await post(
      '/api/auth/change-password',
      { currentPassword: 'Password123!', password: 'a', passwordConfirmation: 'a' },
      bearer(jwt),
    );
    expect(short).to.deep.equal({
      status: 400,
      body: failure('password must be at least 6 characters', [
        issue(['password'], 'password must be at least 6 characters'),
      ]),
    });
  });

  it("null fields are yup's type error, an array body the body's (register picks nothing out of it)", async () => {
    const typeError = (path: string[], value: string) =>
      issue(
        path,
        `${path[0] ?? 'this'} must be a \`${path.length ? 'string' : 'object'}\` type, but the final value was: \`${value}\`.`,
      );
    expect(await post('/api/auth/local', { identifier: null, password: 'x' })).to.deep.equal({
      status: 400,
      body: failure('identifier must be a `string` type, but the final value was: `null`.', [
        typeError(['identifier'], 'null'),
      ]),
    });
    expect(await post('/api/auth/forgot-password', { email: null })).to.deep.equal({
      status: 400,
      body: failure('email must be a `string` type, but the final value was: `null`.', [typeError(['email'], 'null')]),
    });
    const change = await post(
      '/api/auth/change-password',
      { currentPassword: 'Password123!', password: null, passwordConfirmation: null },
      bearer(jwt),
    );
    expect(change).to.deep.equal({
      status: 400,
      body: failure('2 errors occurred', [
        typeError(['passwordConfirmation'], 'null'),
        typeError(['password'], 'null'),
      ]),
    });
    for (const path of ['/api/auth/local', '/api/auth/forgot-password', '/api/auth/reset-password']) {
      const res = await request(service.app).post(path).send([]);
      expect({ status: res.status, body: res.body as unknown }, path).to.deep.equal({
        status: 400,
        body: failure('this must be a `object` type, but the final value was: `[]`.', [typeError([], '[]')]),
      });
    }
    const changeArray = await request(service.app).post('/api/auth/change-password').set(bearer(jwt)).send([]);
    expect(changeArray.body.error.message).to.equal('this must be a `object` type, but the final value was: `[]`.');
    const register = await request(service.app).post('/api/auth/local/register').send([]);
    expect(register.body.error.message).to.equal('3 errors occurred');
  });

  it("a text body is the body's type error (register picks nothing out of it); no body, or one not parsed, is an empty object", async () => {
    const text = 'identifier=alice';
    const typeError = issue([], `this must be a \`object\` type, but the final value was: \`"${text}"\`.`);
    for (const path of ['/api/auth/local', '/api/auth/forgot-password', '/api/auth/reset-password']) {
      const res = await request(service.app).post(path).set('Content-Type', 'text/plain').send(text);
      expect({ status: res.status, body: res.body as unknown }, path).to.deep.equal({
        status: 400,
        body: failure(typeError.message, [typeError]),
      });
    }
    const register = await request(service.app)
      .post('/api/auth/local/register')
      .set('Content-Type', 'text/plain')
      .send(text);
    expect(register.body.error.details.errors.map((e: { path: string[] }) => e.path[0])).to.deep.equal([
      'email',
      'username',
      'password',
    ]);
    const required = (field: string) => issue([field], `${field} is a required field`);
    const bare = await request(service.app).post('/api/auth/local');
    const xml = await request(service.app).post('/api/auth/local').set('Content-Type', 'application/xml').send('<a/>');
    for (const res of [bare, xml])
      expect({ status: res.status, body: res.body as unknown }).to.deep.equal({
        status: 400,
        body: failure('2 errors occurred', [required('identifier'), required('password')]),
      });
  });

  it('change-password: a new password equal to the current one is refused', async () => {
    const same = await post(
      '/api/auth/change-password',
      { currentPassword: 'Password123!', password: 'Password123!', passwordConfirmation: 'Password123!' },
      bearer(jwt),
    );
    expect(same).to.deep.equal({
      status: 400,
      body: failure('Your new password must be different than your current password'),
    });
  });

  it('OAuth connect and callback: no provider is enabled; the local callback is the login', async () => {
    for (const path of ['/api/connect/github', '/api/connect/foo', '/api/auth/github/callback']) {
      const res = await request(service.app).get(path);
      expect([res.status, res.body], path).to.deep.equal([
        400,
        failure('This provider is disabled', undefined, 'ApplicationError'),
      ]);
    }
    const local = await request(service.app).get('/api/auth/local/callback');
    expect([local.status, local.body]).to.deep.equal([
      400,
      failure('2 errors occurred', [
        issue(['identifier'], 'identifier is a required field'),
        issue(['password'], 'password is a required field'),
      ]),
    ]);
  });

  it('GraphQL register and resetPassword report the same first error', async () => {
    const gql = async (query: string) => (await request(service.app).post('/graphql').send({ query })).body;
    const registered = await gql(
      'mutation { register(input: { username: "zz", email: "bad", password: "1" }) { jwt } }',
    );
    expect(registered.errors[0].message).to.equal('email must be a valid email');
    expect(registered.errors[0].extensions.error.details.errors).to.have.length(1);
    const reset = await gql('mutation { resetPassword(password: "a", passwordConfirmation: "a", code: "x") { jwt } }');
    expect(reset.errors[0].message).to.equal('Incorrect code provided');
  });
});
