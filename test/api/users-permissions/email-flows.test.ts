// The users-permissions e-mail flows as Strapi 4.26 runs them (answers recorded from the reference
// Strapi): the store's advanced settings (email_confirmation, its redirection, email_reset_password)
// and e-mail templates, the mails sent through the e-mail plugin's provider (a memory provider here).
import { expect } from 'chai';
import request from 'supertest';
import { MEMORY_EMAIL_PLUGIN, sentMails } from '../../helpers/mail-capture.js';
import { createTestService, type TestService } from '../../helpers/server.js';

const STORE = 'strapi_core_store_settings';

describe('users-permissions e-mail flows', () => {
  let service: TestService;
  const sent = sentMails();
  const api = () => request(service.app);
  const store = (key: string, value: unknown) =>
    service.context.connection
      .collection<{ key: string }>(STORE)
      .updateOne({ key, environment: null, tag: null }, { $set: { value } }, { upsert: true });
  const advanced = (value: Record<string, unknown>) =>
    store('plugin_users-permissions_advanced', {
      unique_email: true,
      allow_register: true,
      email_confirmation: true,
      email_reset_password: 'https://front.example/reset',
      email_confirmation_redirection: 'https://front.example/confirmed',
      default_role: 'authenticated',
      ...value,
    });
  const tokenIn = (text: unknown, name: string) => new RegExp(`${name}=([0-9a-f]+)`).exec(String(text))?.[1] ?? '';

  before(async () => {
    service = await createTestService({
      config: {
        plugins: {
          ...MEMORY_EMAIL_PLUGIN,
          'users-permissions': { enabled: true, config: { ratelimit: { enabled: false } } },
        },
        permissions: {
          authenticated: ['plugin::users-permissions.user.create', 'plugin::users-permissions.user.update'],
        },
      },
    });
    await advanced({});
  });
  after(() => service.close());
  beforeEach(() => {
    sent.length = 0;
  });

  it('email_confirmation: register answers { user } unconfirmed and mails the link; login waits for the confirmation', async () => {
    const res = await api()
      .post('/api/auth/local/register')
      .send({ username: 'conf1', email: 'Conf1@Example.com', password: 'secret123' })
      .expect(200);
    expect(res.body).to.have.keys(['user']);
    expect(res.body.user).to.include({ username: 'conf1', email: 'conf1@example.com', confirmed: false });
    expect(sent).to.have.length(1);
    const [mail] = sent;
    const { host, port } = service.context.config.server;
    const code = tokenIn(mail?.text, 'confirmation');
    expect(mail).to.deep.include({
      to: 'conf1@example.com',
      from: 'Administration Panel <no-reply@strapi.io>',
      replyTo: '',
      subject: 'Account confirmation',
      tag: 'memory',
    });
    expect(mail?.html).to.equal(mail?.text);
    expect(mail?.text).to.equal(
      '<p>Thank you for registering!</p>\n\n<p>You have to confirm your email address. Please click on the link below.</p>\n\n' +
        `<p>http://${host}:${port}/api/auth/email-confirmation?confirmation=${code}</p>\n\n<p>Thanks.</p>`,
    );

    const refused = await api()
      .post('/api/auth/local')
      .send({ identifier: 'conf1', password: 'secret123' })
      .expect(400);
    expect(refused.body.error).to.deep.equal({
      status: 400,
      name: 'ApplicationError',
      message: 'Your account email is not confirmed',
      details: {},
    });
    const wrong = await api().post('/api/auth/local').send({ identifier: 'conf1', password: 'nope' }).expect(400);
    expect(wrong.body.error.message).to.equal('Invalid identifier or password');

    const confirmed = await api().get(`/api/auth/email-confirmation?confirmation=${code}`).expect(302);
    expect(confirmed.headers.location).to.equal('https://front.example/confirmed');
    const session = await api()
      .post('/api/auth/local')
      .send({ identifier: 'conf1', password: 'secret123' })
      .expect(200);
    expect(session.body.jwt).to.be.a('string');
    expect(session.body.user.confirmed).to.equal(true);
  });

  it('send-email-confirmation mails a new link that confirms; GraphQL register has no jwt either', async () => {
    const gql = await api().post('/graphql').send({
      query:
        'mutation { register(input: { username: "conf2", email: "conf2@example.com", password: "secret123" }) { jwt user { username confirmed } } }',
    });
    expect(gql.body.data.register).to.deep.equal({ jwt: null, user: { username: 'conf2', confirmed: false } });
    const again = await api()
      .post('/api/auth/send-email-confirmation')
      .send({ email: 'CONF2@example.com' })
      .expect(200);
    expect(again.body).to.deep.equal({ email: 'conf2@example.com', sent: true });
    expect(sent.map((m) => m.to)).to.deep.equal(['conf2@example.com', 'conf2@example.com']);
    // the first link was replaced by the second
    const [first, second] = sent.map((m) => tokenIn(m.text, 'confirmation'));
    await api().get(`/api/auth/email-confirmation?confirmation=${first}`).expect(400);
    await api().get(`/api/auth/email-confirmation?confirmation=${second}`).expect(302);
    const done = await api().post('/api/auth/send-email-confirmation').send({ email: 'conf2@example.com' }).expect(400);
    expect(done.body.error.message).to.equal('Already confirmed');
  });

  it('forgot-password mails the reset_password template with email_reset_password as URL; the code resets', async () => {
    await api().post('/api/auth/forgot-password').send({ email: 'CONF1@example.com' }).expect(200, { ok: true });
    expect(sent).to.have.length(1);
    const code = tokenIn(sent[0]?.text, 'code');
    expect(sent[0]).to.deep.include({ to: 'conf1@example.com', subject: 'Reset password' });
    expect(sent[0]?.text).to.include(`<p>https://front.example/reset?code=${code}</p>`);
    await api()
      .post('/api/auth/reset-password')
      .send({ code, password: 'newpass123', passwordConfirmation: 'newpass123' })
      .expect(200);
    await api().post('/api/auth/local').send({ identifier: 'conf1', password: 'newpass123' }).expect(200);
  });

  it('a reset code resets once, also when it is sent several times in parallel', async () => {
    await api().post('/api/auth/forgot-password').send({ email: 'conf1@example.com' }).expect(200);
    const code = tokenIn(sent[0]?.text, 'code');
    const answers = await Promise.all(
      ['racer1pass', 'racer2pass', 'racer3pass', 'racer4pass'].map((password) =>
        api().post('/api/auth/reset-password').send({ code, password, passwordConfirmation: password }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 400, 400, 400]);
    const winner = answers.findIndex((a) => a.status === 200);
    for (const [i, answer] of answers.entries())
      if (i !== winner) expect(answer.body.error.message).to.equal('Incorrect code provided');
    const password = `racer${winner + 1}pass`;
    await api().post('/api/auth/local').send({ identifier: 'conf1', password }).expect(200);
  });

  it('a confirmation link confirms once, also when it is opened several times in parallel', async () => {
    await api()
      .post('/api/auth/local/register')
      .send({ username: 'conf3', email: 'conf3@example.com', password: 'secret123' })
      .expect(200);
    const code = tokenIn(sent[0]?.text, 'confirmation');
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => api().get(`/api/auth/email-confirmation?confirmation=${code}`)),
    );
    expect(answers.map((a) => a.status).sort()).to.deep.equal([302, 400, 400, 400]);
    for (const answer of answers.filter((a) => a.status === 400))
      expect(answer.body.error).to.include({ name: 'ValidationError', message: 'Invalid token' });
    await api().post('/api/auth/local').send({ identifier: 'conf3', password: 'secret123' }).expect(200);
  });

  it("the store's templates: Strapi's variables only, no code run; from and reply-to as set", async () => {
    await store('plugin_users-permissions_email', {
      reset_password: {
        options: {
          from: { name: 'Site', email: 'site@example.com' },
          response_email: 'help@example.com',
          object: 'Reset for <%= USER.username %>',
          message: '<%= URL %>?code=<%= TOKEN %> at <%= SERVER_URL %> <%= USER.password %> <% throw 1 %> <%- USER %>',
        },
      },
    });
    await api().post('/api/auth/forgot-password').send({ email: 'conf1@example.com' }).expect(200);
    const [mail] = sent;
    const code = tokenIn(mail?.text, 'code');
    const { host, port } = service.context.config.server;
    expect(mail).to.deep.include({
      from: 'Site <site@example.com>',
      replyTo: 'help@example.com',
      subject: 'Reset for conf1',
      text: `https://front.example/reset?code=${code} at http://${host}:${port} <%= USER.password %> <% throw 1 %> <%- USER %>`,
    });
  });

  it('without email_confirmation, register answers the jwt and a confirmed user, and sends nothing', async () => {
    await advanced({ email_confirmation: false });
    const res = await api()
      .post('/api/auth/local/register')
      .send({ username: 'plain', email: 'plain@example.com', password: 'secret123' })
      .expect(200);
    expect(res.body.jwt).to.be.a('string');
    expect(res.body.user.confirmed).to.equal(true);
    expect(sent).to.deep.equal([]);
    const redirect = await api().get('/api/auth/email-confirmation?confirmation=abc').expect(400);
    expect(redirect.body.error.message).to.equal('Invalid token');
  });

  it('unique_email false: /api/users creates and updates users sharing an address (as given on update); true refuses it', async () => {
    await advanced({ email_confirmation: false, unique_email: false });
    const { body } = await api()
      .post('/api/auth/local/register')
      .send({ username: 'owner', email: 'owner@example.com', password: 'secret123' })
      .expect(200);
    const auth = { Authorization: `Bearer ${body.jwt as string}` };
    const user = { password: 'secret123', role: 1 };
    const second = await api()
      .post('/api/users')
      .set(auth)
      .send({ ...user, username: 'second', email: 'Owner@example.com' })
      .expect(201);
    expect(second.body).to.include({ username: 'second', email: 'owner@example.com' });
    const renamed = await api()
      .put(`/api/users/${second.body.id}`)
      .set(auth)
      .send({ email: 'Plain@Example.com' })
      .expect(200);
    expect(renamed.body.email).to.equal('Plain@Example.com');
    await api().put(`/api/users/${second.body.id}`).set(auth).send({ email: 'owner@example.com' }).expect(200);
    const users = service.context.connection.collection<{ _id: number; email: string }>('up_users');
    expect(await users.countDocuments({ email: 'owner@example.com' })).to.equal(2);

    await advanced({ email_confirmation: false, unique_email: true });
    const refused = await api()
      .post('/api/users')
      .set(auth)
      .send({ ...user, username: 'third', email: 'owner@example.com' })
      .expect(400);
    expect(refused.body.error).to.include({ name: 'ApplicationError', message: 'Email already taken' });
  });
});
