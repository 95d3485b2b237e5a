// The users-permissions codes (a reset code, a confirmation token) used from two instances at once:
// each is spent once, whichever instance it reaches, and of two forgot-password requests for one
// address only the code stored last resets.
import { expect } from 'chai';
import request from 'supertest';
import { MEMORY_EMAIL_PLUGIN, sentMails } from '../helpers/mail-capture.js';
import { createTestService, freshDatabaseUri, type TestService } from '../helpers/server.js';

const CONFIG = {
  plugins: {
    ...MEMORY_EMAIL_PLUGIN,
    'users-permissions': { enabled: true, config: { ratelimit: { enabled: false }, jwtSecret: 'two-instances' } },
  },
};

describe('users-permissions codes used from two instances', function () {
  this.timeout(30_000);
  const services: TestService[] = [];
  const sent = sentMails();
  const api = (i: number) => request(services[i % 2]!.app);
  const codeIn = (text: unknown, name: string) => new RegExp(`${name}=([0-9a-f]+)`).exec(String(text))?.[1] ?? '';

  before(async () => {
    const uri = freshDatabaseUri();
    for (let i = 0; i < 2; i++) services.push(await createTestService({ config: CONFIG }, uri));
    await services[0]!.context.connection.collection('strapi_core_store_settings').updateOne(
      { key: 'plugin_users-permissions_advanced', environment: null, tag: null },
      {
        $set: {
          value: {
            unique_email: true,
            allow_register: true,
            email_confirmation: true,
            email_reset_password: 'https://front.example/reset',
            email_confirmation_redirection: 'https://front.example/confirmed',
            default_role: 'authenticated',
          },
        },
      },
      { upsert: true },
    );
  });
  after(async () => {
    await services[1]?.stop();
    await services[0]?.close();
  });
  beforeEach(() => {
    sent.length = 0;
  });

  const register = async (username: string) => {
    const res = await api(0)
      .post('/api/auth/local/register')
      .send({ username, email: `${username}@example.com`, password: 'secret123' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return codeIn(sent.at(-1)?.text, 'confirmation');
  };
  const login = (username: string, password: string) =>
    api(1).post('/api/auth/local').send({ identifier: username, password });

  it('a confirmation link opened on both instances at once confirms once', async () => {
    const token = await register('confirmed');
    expect((await login('confirmed', 'secret123')).status).to.equal(400);
    const answers = await Promise.all(
      [0, 1, 2, 3].map((i) => api(i).get(`/api/auth/email-confirmation?confirmation=${token}`)),
    );
    expect(answers.map((a) => a.status).sort()).to.deep.equal([302, 400, 400, 400]);
    for (const answer of answers.filter((a) => a.status === 400))
      expect(answer.body.error).to.include({ name: 'ValidationError', message: 'Invalid token' });
    expect((await login('confirmed', 'secret123')).status).to.equal(200);
  });

  it('a reset code sent to both instances at once resets once', async () => {
    await api(0)
      .get(`/api/auth/email-confirmation?confirmation=${await register('resetting')}`)
      .expect(302);
    sent.length = 0;
    await api(1).post('/api/auth/forgot-password').send({ email: 'resetting@example.com' }).expect(200);
    const code = codeIn(sent[0]?.text, 'code');
    const passwords = ['first111', 'second22', 'third333', 'fourth44'];
    const answers = await Promise.all(
      passwords.map((password, i) =>
        api(i).post('/api/auth/reset-password').send({ code, password, passwordConfirmation: password }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 400, 400, 400]);
    const winner = answers.findIndex((a) => a.status === 200);
    for (const answer of answers.filter((a) => a.status === 400))
      expect(answer.body.error.message).to.equal('Incorrect code provided');
    for (const [i, password] of passwords.entries())
      expect((await login('resetting', password)).status, password).to.equal(i === winner ? 200 : 400);
  });

  it('of two forgot-password requests on the two instances at once, only the code stored last resets', async () => {
    await api(0)
      .get(`/api/auth/email-confirmation?confirmation=${await register('forgetful')}`)
      .expect(302);
    sent.length = 0;
    const asked = await Promise.all(
      [0, 1].map((i) => api(i).post('/api/auth/forgot-password').send({ email: 'forgetful@example.com' })),
    );
    expect(asked.map((a) => a.status)).to.deep.equal([200, 200]);
    const codes = sent.map((mail) => codeIn(mail.text, 'code'));
    expect(codes).to.have.length(2);
    expect(codes[0]).to.not.equal(codes[1]);
    const answers = await Promise.all(
      codes.map((code, i) =>
        api(i)
          .post('/api/auth/reset-password')
          .send({ code, password: `newpass${i}x`, passwordConfirmation: `newpass${i}x` }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 400]);
    const winner = answers.findIndex((a) => a.status === 200);
    expect((await login('forgetful', `newpass${winner}x`)).status).to.equal(200);
    expect((await login('forgetful', 'secret123')).status).to.equal(400);
  });
});
