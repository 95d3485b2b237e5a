// users-permissions' user service `sendConfirmationEmail(user)` (Strapi 4.26), which projects call
// from their own sign-up or "resend" actions: a new confirmation token for the user and the advanced
// settings' confirmation template mailed through the e-mail plugin; the link it mails confirms the
// user. Without an e-mail provider installed the mail goes to the log and the request still answers.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { MEMORY_EMAIL_PLUGIN, sentMails } from '../helpers/mail-capture.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeFiles } from '../helpers/temp-app.js';

// the project's own "resend the confirmation" action
const CONTROLLER = `module.exports = {
  async hello(ctx) {
    const users = strapi.plugin('users-permissions').service('user');
    const [user] = await users.fetchAll({ filters: { username: ctx.query.username } });
    await users.sendConfirmationEmail(user);
    ctx.body = { sent: true };
  },
};
`;

async function project(plugins: Record<string, unknown>): Promise<string> {
  const appDir = await mkdtemp(join(tmpdir(), 'cs-send-confirmation-'));
  await writeFiles(appDir, {
    ...NOTE_HELLO_API,
    'config/plugins.js': `module.exports = ${JSON.stringify(plugins)};`,
    'src/api/note/controllers/note.js': CONTROLLER,
    'src/api/note/routes/hello.js':
      "module.exports = { routes: [{ method: 'GET', path: '/resend', handler: 'note.hello' }] };",
  });
  return appDir;
}

describe("users-permissions' user service sendConfirmationEmail(user)", () => {
  let service: TestService;
  const sent = sentMails();
  const api = () => request(service.app);
  before(async () => {
    service = await createTestService({ appDir: await project(MEMORY_EMAIL_PLUGIN) });
  });
  after(() => service.close());
  beforeEach(() => {
    sent.length = 0;
  });

  it('mails the confirmation template with a new code, which confirms the user', async () => {
    await api()
      .post('/api/auth/local/register')
      .send({ username: 'resender', email: 'resender@example.org', password: 'Password123!' })
      .expect(200);
    const res = await api().get('/api/resend?username=resender');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(sent).to.have.length(1);
    const [mail] = sent;
    expect(mail).to.include({ to: 'resender@example.org', subject: 'Account confirmation' });
    const code = /confirmation=([0-9a-f]+)/.exec(String(mail?.text))?.[1];
    expect(code, String(mail?.text)).to.be.a('string');
    await api().get(`/api/auth/email-confirmation?confirmation=${code}`).expect(302);
    // the code is used up
    await api().get(`/api/auth/email-confirmation?confirmation=${code}`).expect(400);
  });

  it('does not fail the request when no e-mail provider is installed (the mail is logged)', async () => {
    const bare = await createTestService({ appDir: await project({}) });
    try {
      await request(bare.app)
        .post('/api/auth/local/register')
        .send({ username: 'nomail', email: 'nomail@example.org', password: 'Password123!' })
        .expect(200);
      const res = await request(bare.app).get('/api/resend?username=nomail');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ sent: true });
    } finally {
      await bare.close();
    }
  });
});
