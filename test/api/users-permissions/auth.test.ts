import { expect } from 'chai';
import jsonwebtoken from 'jsonwebtoken';
import request from 'supertest';
import { USER_UID } from '../../../src/content-types/index.js';
import { createApiToken } from '../../../src/plugins/users-permissions/index.js';
import { MEMORY_EMAIL_PLUGIN, sentMails } from '../../helpers/mail-capture.js';
import { createTestService, type TestService } from '../../helpers/server.js';
import { bearer, login, registerSeedUsers } from './helpers.js';
import { collectionOf } from '../../../src/plugins/users-permissions/collections.js';

const SECRET = 'auth-test-secret';
const USER_KEYS = ['blocked', 'confirmed', 'createdAt', 'email', 'id', 'provider', 'updatedAt', 'username'];

describe('users-permissions: register, login, JWT', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({
      config: {
        plugins: {
          'users-permissions': { enabled: true, config: { jwtSecret: SECRET, ratelimit: { enabled: false } } },
        },
      },
    });
    await registerSeedUsers(service.app);
  });
  after(() => service.close());

  describe('POST /api/auth/local/register', () => {
    it('answers { jwt, user } with only the public user fields', async () => {
      const res = await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 'dave', email: 'Dave@Example.com', password: 'hunter22' });
      expect(res.status).to.equal(200);
      expect(res.body.jwt).to.be.a('string');
      expect(Object.keys(res.body.user).sort()).to.deep.equal(USER_KEYS);
      expect(res.body.user).to.include({
        username: 'dave',
        email: 'dave@example.com',
        provider: 'local',
        confirmed: true,
        blocked: false,
      });
    });

    it('shows the new user’s role to a caller who may read roles (a full-access API token), as Strapi', async () => {
      const { accessKey } = await createApiToken(service.context, { name: 'register-caller', type: 'full-access' });
      const res = await request(service.app)
        .post('/api/auth/local/register')
        .set('Authorization', `Bearer ${accessKey}`)
        .send({ username: 'dora', email: 'dora@example.com', password: 'hunter22' });
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body.user).sort()).to.deep.equal([...USER_KEYS, 'role'].sort());
      expect(res.body.user.role).to.include({ name: 'Authenticated', type: 'authenticated' });
      expect(Object.keys(res.body.user.role).sort()).to.deep.equal([
        'createdAt',
        'description',
        'id',
        'name',
        'type',
        'updatedAt',
      ]);
    });

    it('stores a bcrypt hash, never the password', async () => {
      const doc = await collectionOf(service.context, USER_UID).findOne({ username: 'dave' });
      expect(doc?.password).to.match(/^\$2[aby]\$10\$/);
    });

    it('ignores role, confirmed, blocked, provider and tokens in the body (CVE-2023-39345)', async () => {
      const res = await request(service.app).post('/api/auth/local/register').send({
        username: 'mallory',
        email: 'mallory@example.com',
        password: 'hunter22',
        role: 99,
        confirmed: false,
        blocked: true,
        provider: 'github',
        resetPasswordToken: 'abc',
        confirmationToken: 'def',
        id: 500,
      });
      expect(res.status).to.equal(200);
      expect(res.body.user).to.include({ blocked: false, confirmed: true, provider: 'local' });
      expect(res.body.user.id).to.not.equal(500);
      const doc = await collectionOf(service.context, USER_UID).findOne({ username: 'mallory' });
      const roles = await collectionOf(service.context, 'plugin::users-permissions.role').findOne({
        type: 'authenticated',
      });
      expect(doc?.role).to.equal(roles?._id);
      expect(doc?.resetPasswordToken ?? null).to.equal(null);
    });

    it('requires a password (Strapi message)', async () => {
      const res = await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 'tmp_b', email: 'tmp_b@tmp.example.org' });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        data: null,
        error: {
          status: 400,
          name: 'ValidationError',
          message: 'password is a required field',
          details: {
            errors: [{ path: ['password'], message: 'password is a required field', name: 'ValidationError' }],
          },
        },
      });
    });

    it('refuses a short password', async () => {
      const res = await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 'tmp_e', email: 'tmp_e@tmp.example.org', password: '123' });
      expect(res.status).to.equal(400);
      expect(res.body.error.message).to.equal('password must be at least 6 characters');
    });

    it('refuses a password over 72 bytes, which bcrypt would cut (docs/strapi-deviations.md); 72 bytes register', async () => {
      const long = await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 'tmp_long', email: 'tmp_long@tmp.example.org', password: 'é'.repeat(37) });
      expect(long.status).to.equal(400);
      expect(long.body.error.details.errors).to.deep.equal([
        { path: ['password'], message: 'password must be less than 72 bytes', name: 'ValidationError' },
      ]);
      expect(await collectionOf(service.context, USER_UID).countDocuments({ username: 'tmp_long' })).to.equal(0);
      const password = 'é'.repeat(36);
      const fits = await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 'tmp_fits', email: 'tmp_fits@tmp.example.org', password });
      expect(fits.status).to.equal(200);
      const again = await request(service.app).post('/api/auth/local').send({ identifier: 'tmp_fits', password });
      expect(again.status).to.equal(200);
    });

    it('refuses an invalid e-mail and non-string fields', async () => {
      const bad = await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 'tmp_f', email: 'nope', password: 'hunter22' });
      expect(bad.status).to.equal(400);
      const typed = await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: { $ne: 1 }, email: 'x@y.org', password: 'hunter22' });
      expect(typed.status).to.equal(400);
      const arr = await request(service.app).post('/api/auth/local/register').send([1, 2]);
      expect(arr.status).to.equal(400);
    });

    it('refuses a taken username or e-mail (any case)', async () => {
      const res = await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 'alice2', email: 'ALICE@users.example.com', password: 'hunter22' });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.include({ name: 'ApplicationError', message: 'Email or Username are already taken' });
      const same = await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 'alice', email: 'other@users.example.com', password: 'hunter22' });
      expect(same.status).to.equal(400);
    });

    it("refuses a username that is another user's e-mail, and an e-mail that is another's username (Strapi 4.26)", async () => {
      const count = () => collectionOf(service.context, USER_UID).countDocuments({});
      const before = await count();
      const cross = await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 'alice@users.example.com', email: 'cross@example.org', password: 'hunter22' });
      expect(cross.status).to.equal(400);
      expect(cross.body).to.deep.equal({
        data: null,
        error: { status: 400, name: 'ApplicationError', message: 'Email or Username are already taken', details: {} },
      });
      await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 'mail@like.org', email: 'ml@example.org', password: 'hunter22' })
        .expect(200);
      const other = await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 'someone', email: 'MAIL@like.org', password: 'hunter22' });
      expect(other.status).to.equal(400);
      expect(other.body.error.message).to.equal('Email or Username are already taken');
      expect(await count()).to.equal(before + 1);
    });
  });

  describe('POST /api/auth/local', () => {
    it('logs in by username or by e-mail in any case', async () => {
      const res = await request(service.app)
        .post('/api/auth/local')
        .send({ identifier: 'BOB@users.example.com', password: 'Password123!' });
      expect(res.status).to.equal(200);
      expect(res.body.user).to.include({ id: 2, username: 'bob', email: 'bob@users.example.com' });
      expect(Object.keys(res.body.user).sort()).to.deep.equal(USER_KEYS);
      await login(service.app, 'Carol_X', 'Secret%&*456');
    });

    it('requires an identifier (Strapi message)', async () => {
      const res = await request(service.app).post('/api/auth/local').send({ password: 'Password123!' });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.deep.equal({
        status: 400,
        name: 'ValidationError',
        message: 'identifier is a required field',
        details: {
          errors: [{ path: ['identifier'], message: 'identifier is a required field', name: 'ValidationError' }],
        },
      });
    });

    it('answers the same for an unknown identifier and a wrong password', async () => {
      const unknown = await request(service.app)
        .post('/api/auth/local')
        .send({ identifier: 'nobody', password: 'Password123!' });
      const wrong = await request(service.app)
        .post('/api/auth/local')
        .send({ identifier: 'alice', password: 'wrong-password' });
      expect(unknown.status).to.equal(400);
      expect(unknown.body).to.deep.equal(wrong.body);
      expect(wrong.body.error).to.include({ name: 'ValidationError', message: 'Invalid identifier or password' });
    });

    it('refuses operator injection in the identifier', async () => {
      const res = await request(service.app)
        .post('/api/auth/local')
        .send({ identifier: { $ne: '' }, password: 'Password123!' });
      expect(res.status).to.equal(400);
    });

    it('ignores a malformed Authorization header on a public route', async () => {
      const res = await request(service.app)
        .post('/api/auth/local')
        .set('Authorization', 'Token abc')
        .send({ identifier: 'alice', password: 'Password123!' });
      expect(res.status).to.equal(200);
    });
  });

  describe('JWT', () => {
    it('GET /api/users/me answers the caller', async () => {
      const jwt = await login(service.app, 'alice', 'Password123!');
      const res = await request(service.app).get('/api/users/me').set(bearer(jwt));
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ id: 1, username: 'alice' });
      expect(res.body).to.not.have.any.keys('password', 'resetPasswordToken', 'confirmationToken', 'role');
    });

    it('GET /api/users/me without credentials is 403', async () => {
      const res = await request(service.app).get('/api/users/me');
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal({
        data: null,
        error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} },
      });
    });

    const rejects = (name: string, token: () => string) =>
      it(`rejects ${name} with 401`, async () => {
        const res = await request(service.app).get('/api/users/me').set(bearer(token()));
        expect(res.status).to.equal(401);
        expect(res.body.error.name).to.equal('UnauthorizedError');
        expect(res.body.data).to.equal(null);
      });
    rejects('a token signed with another secret', () => jsonwebtoken.sign({ id: 1 }, 'another-secret'));
    rejects('an expired token', () => jsonwebtoken.sign({ id: 1, exp: Math.floor(Date.now() / 1000) - 60 }, SECRET));
    rejects(
      'an alg:none token',
      () =>
        `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"id":1}').toString('base64url')}.`,
    );
    rejects('another algorithm with the right secret', () =>
      jsonwebtoken.sign({ id: 1 }, SECRET, { algorithm: 'HS512' }),
    );
    rejects('a token without an id', () => jsonwebtoken.sign({ sub: 'x' }, SECRET));
    rejects('a token of a user that does not exist', () => jsonwebtoken.sign({ id: 999 }, SECRET));
    rejects('a garbled token', () => 'a.b.c');

    it('rejects a blocked user and a deleted user', async () => {
      const reg = await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 'eve', email: 'eve@example.com', password: 'hunter22' });
      const { jwt } = reg.body as { jwt: string };
      const id = reg.body.user.id as number;
      expect((await request(service.app).get('/api/users/me').set(bearer(jwt))).status).to.equal(200);
      await collectionOf(service.context, USER_UID).updateOne({ _id: id }, { $set: { blocked: true } });
      expect((await request(service.app).get('/api/users/me').set(bearer(jwt))).status).to.equal(401);
      const blockedLogin = await request(service.app)
        .post('/api/auth/local')
        .send({ identifier: 'eve', password: 'hunter22' });
      expect(blockedLogin.status).to.equal(400);
      await collectionOf(service.context, USER_UID).deleteOne({ _id: id });
      expect((await request(service.app).get('/api/users/me').set(bearer(jwt))).status).to.equal(401);
    });
  });

  describe('passwords', () => {
    it('change-password checks the current password and issues a new JWT', async () => {
      await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 'frank', email: 'frank@example.com', password: 'first-pass' });
      const jwt = await login(service.app, 'frank', 'first-pass');
      const wrong = await request(service.app)
        .post('/api/auth/change-password')
        .set(bearer(jwt))
        .send({ currentPassword: 'nope-nope', password: 'second-pass', passwordConfirmation: 'second-pass' });
      expect(wrong.status).to.equal(400);
      const mismatch = await request(service.app)
        .post('/api/auth/change-password')
        .set(bearer(jwt))
        .send({ currentPassword: 'first-pass', password: 'second-pass', passwordConfirmation: 'other-pass' });
      expect(mismatch.status).to.equal(400);
      const ok = await request(service.app)
        .post('/api/auth/change-password')
        .set(bearer(jwt))
        .send({ currentPassword: 'first-pass', password: 'second-pass', passwordConfirmation: 'second-pass' });
      expect(ok.status).to.equal(200);
      expect(ok.body.jwt).to.be.a('string');
      await login(service.app, 'frank', 'second-pass');
      const anonymous = await request(service.app)
        .post('/api/auth/change-password')
        .send({ currentPassword: 'x', password: 'second-pass', passwordConfirmation: 'second-pass' });
      expect(anonymous.status).to.equal(403);
      // a caller with no user (an API token) is told so as Strapi 4.26 answers it
      const { accessKey } = await createApiToken(service.context, { name: 'no-user', type: 'full-access' });
      const token = await request(service.app)
        .post('/api/auth/change-password')
        .set('Authorization', `Bearer ${accessKey}`)
        .send({ currentPassword: 'x', password: 'second-pass', passwordConfirmation: 'second-pass' });
      expect([token.status, token.body.error?.name, token.body.error?.message]).to.deep.equal([
        400,
        'ApplicationError',
        'You must be authenticated to reset your password',
      ]);
    });

    it('forgot-password answers ok for any address and reset-password takes the code once', async () => {
      const sent = sentMails();
      sent.length = 0;
      const mailer = await createTestService({
        config: {
          plugins: {
            ...MEMORY_EMAIL_PLUGIN,
            'users-permissions': { enabled: true, config: { ratelimit: { enabled: false } } },
          },
        },
      });
      try {
        await registerSeedUsers(mailer.app);
        const unknown = await request(mailer.app)
          .post('/api/auth/forgot-password')
          .send({ email: 'nobody@example.com' });
        expect(unknown.status).to.equal(200);
        expect(unknown.body).to.deep.equal({ ok: true });
        expect(sent).to.have.length(0);
        const known = await request(mailer.app)
          .post('/api/auth/forgot-password')
          .send({ email: 'alice@users.example.com' });
        expect(known.body).to.deep.equal({ ok: true });
        expect(sent).to.have.length(1);
        const code = /code=([0-9a-f]+)/.exec(sent[0]?.text ?? '')?.[1] ?? '';
        const stored = await collectionOf(mailer.context, USER_UID).findOne({ username: 'alice' });
        expect(stored?.resetPasswordToken).to.be.a('string').and.not.equal(code);
        const bad = await request(mailer.app)
          .post('/api/auth/reset-password')
          .send({ code: 'bad', password: 'newpass1', passwordConfirmation: 'newpass1' });
        expect(bad.status).to.equal(400);
        const ok = await request(mailer.app)
          .post('/api/auth/reset-password')
          .send({ code, password: 'newpass1', passwordConfirmation: 'newpass1' });
        expect(ok.status).to.equal(200);
        expect(ok.body.user.username).to.equal('alice');
        const again = await request(mailer.app)
          .post('/api/auth/reset-password')
          .send({ code, password: 'newpass2', passwordConfirmation: 'newpass2' });
        expect(again.status).to.equal(400);
        await login(mailer.app, 'alice', 'newpass1');
      } finally {
        await mailer.close();
      }
    });

    it('e-mail confirmation: send-email-confirmation and email-confirmation as Strapi 4.26 answers them', async () => {
      const sent = sentMails();
      sent.length = 0;
      const mailer = await createTestService({
        config: {
          plugins: {
            ...MEMORY_EMAIL_PLUGIN,
            'users-permissions': { enabled: true, config: { ratelimit: { enabled: false } } },
          },
        },
      });
      try {
        await registerSeedUsers(mailer.app);
        const send = (body: object) => request(mailer.app).post('/api/auth/send-email-confirmation').send(body);
        const confirm = (query: string) => request(mailer.app).get(`/api/auth/email-confirmation${query}`);
        const error = (status: number, name: string, message: string, path?: string) => ({
          data: null,
          error: {
            status,
            name,
            message,
            details: path ? { errors: [{ path: [path], message, name: 'ValidationError' }] } : {},
          },
        });
        // recorded from the reference Strapi 4.26.2
        expect((await send({ email: 'Nobody@example.com' })).body).to.deep.equal({
          email: 'Nobody@example.com',
          sent: true,
        });
        expect((await send({ email: 'bad' })).body).to.deep.equal(
          error(400, 'ValidationError', 'email must be a valid email', 'email'),
        );
        expect((await send({})).body).to.deep.equal(
          error(400, 'ValidationError', 'email is a required field', 'email'),
        );
        expect((await send({ email: 'alice@users.example.com' })).body).to.deep.equal(
          error(400, 'ApplicationError', 'Already confirmed'),
        );
        expect((await confirm('')).body).to.deep.equal(
          error(400, 'ValidationError', 'confirmation is a required field', 'confirmation'),
        );
        expect((await confirm('?confirmation=abc')).body).to.deep.equal(error(400, 'ValidationError', 'Invalid token'));
        // a user who is not confirmed gets a link; following it confirms them, once
        await collectionOf(mailer.context, USER_UID).updateOne({ username: 'alice' }, { $set: { confirmed: false } });
        const link = await send({ email: 'ALICE@users.example.com' });
        expect(link.body).to.deep.equal({ email: 'alice@users.example.com', sent: true });
        expect(sent.map((m) => [m.to, m.subject])).to.deep.equal([['alice@users.example.com', 'Account confirmation']]);
        const token = /confirmation=([0-9a-f]+)/.exec(sent[0]?.text ?? '')?.[1] ?? '';
        expect(sent[0]?.text).to.include(`/api/auth/email-confirmation?confirmation=${token}`);
        const confirmed = await confirm(`?confirmation=${token}`);
        expect([confirmed.status, confirmed.headers.location]).to.deep.equal([302, '/']);
        const stored = await collectionOf(mailer.context, USER_UID).findOne({ username: 'alice' });
        expect(stored).to.include({ confirmed: true, confirmationToken: null });
        expect((await confirm(`?confirmation=${token}`)).status).to.equal(400);
        // GraphQL's emailConfirmation answers the session of the user it confirms
        await collectionOf(mailer.context, USER_UID).updateOne({ username: 'alice' }, { $set: { confirmed: false } });
        await send({ email: 'alice@users.example.com' });
        const second = /confirmation=([0-9a-f]+)/.exec(sent[1]?.text ?? '')?.[1] ?? '';
        const mutation =
          'mutation($c: String!) { emailConfirmation(confirmation: $c) { jwt user { username confirmed } } }';
        const gql = await request(mailer.app)
          .post('/graphql')
          .send({ query: mutation, variables: { c: second } });
        expect(gql.body.data.emailConfirmation.user).to.deep.equal({ username: 'alice', confirmed: true });
        expect(gql.body.data.emailConfirmation.jwt).to.be.a('string');
        const spent = await request(mailer.app)
          .post('/graphql')
          .send({ query: mutation, variables: { c: second } });
        expect(spent.body.errors[0].message).to.equal('Invalid token');
      } finally {
        await mailer.close();
      }
    });

    it('type errors and error order worded as Strapi 4.26', async () => {
      const login = await request(service.app)
        .post('/api/auth/local')
        .send({ identifier: { a: 1 }, password: 'x' });
      expect(login.body.error.message).to.equal(
        'identifier must be a `string` type, but the final value was: `{\n  "a": "1"\n}`.',
      );
      const register = await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 5, email: 'x@y.com', password: 'Password123!' });
      expect(register.body.error.message).to.equal('username must be a `string` type, but the final value was: `5`.');
      const reset = await request(service.app).post('/api/auth/reset-password').send({});
      expect((reset.body.error.details.errors as { path: string[] }[]).map((e) => e.path[0])).to.deep.equal([
        'passwordConfirmation',
        'password',
        'code',
      ]);
    });
  });
});
