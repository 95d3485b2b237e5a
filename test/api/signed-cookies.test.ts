// Koa's signed cookies in a project's controllers: `ctx.cookies.set(name, value, { signed: true })`
// sends `name.sig`, keygrip's signature of `name=value` under the first of config/server `app.keys`;
// `ctx.cookies.get(name, { signed: true })` answers only a cookie whose signature one key made.
import { createHmac } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeFiles } from '../helpers/temp-app.js';

const CONTROLLER = `module.exports = {
  hello(ctx) {
    if (ctx.query.set) {
      ctx.cookies.set('session', ctx.query.set, { signed: true });
      ctx.cookies.set('plain', 'open', { signed: false });
    }
    ctx.body = { session: ctx.cookies.get('session', { signed: true }) ?? null, plain: ctx.cookies.get('plain', { signed: false }) ?? null };
  },
};
`;

/** keygrip's signature, computed here independently of the service */
const keygrip = (data: string, key: string) =>
  createHmac('sha1', key).update(data).digest('base64').replace(/\//g, '_').replace(/\+/g, '-').replace(/=+$/, '');

describe('signed cookies with config/server app.keys (Koa keygrip)', () => {
  let service: TestService;
  const api = () => request(service.app);
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-signed-cookies-'));
    await writeFiles(appDir, {
      ...NOTE_HELLO_API,
      'config/server.js': "module.exports = () => ({ app: { keys: ['new-key', 'old-key'] } });",
      'src/api/note/controllers/note.js': CONTROLLER,
      'src/api/note/routes/hello.js':
        "module.exports = { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello' }] };",
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it('sets the cookie and its signature under the first key; an unsigned one alone', async () => {
    const res = await api().get('/api/hello?set=abc').expect(200);
    const cookies = (res.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]);
    expect(cookies).to.deep.equal(['session=abc', `session.sig=${keygrip('session=abc', 'new-key')}`, 'plain=open']);
  });

  it('reads a cookie signed by any key, re-signing one of an older key with the first', async () => {
    const fresh = await api()
      .get('/api/hello')
      .set('Cookie', `session=abc; session.sig=${keygrip('session=abc', 'new-key')}; plain=open`)
      .expect(200);
    expect(fresh.body).to.deep.equal({ session: 'abc', plain: 'open' });
    expect(fresh.headers['set-cookie']).to.equal(undefined);
    const rotated = await api()
      .get('/api/hello')
      .set('Cookie', `session=abc; session.sig=${keygrip('session=abc', 'old-key')}`)
      .expect(200);
    expect(rotated.body).to.deep.equal({ session: 'abc', plain: null });
    expect(String(rotated.headers['set-cookie'])).to.contain(`session.sig=${keygrip('session=abc', 'new-key')}`);
  });

  it('answers nothing for a cookie without a signature or with a forged one, and clears the bad signature', async () => {
    const bare = await api().get('/api/hello').set('Cookie', 'session=abc').expect(200);
    expect(bare.body.session).to.equal(null);
    const forged = await api()
      .get('/api/hello')
      .set('Cookie', `session=admin; session.sig=${keygrip('session=abc', 'new-key')}`)
      .expect(200);
    expect(forged.body.session).to.equal(null);
    expect(String(forged.headers['set-cookie'])).to.match(/session\.sig=;.*Expires=Thu, 01 Jan 1970/);
  });
});
