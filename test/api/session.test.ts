// `strapi::session` (koa-session's cookie store, as Strapi 4.26 configures it): `ctx.session` in a
// project's controllers and middlewares is read from the signed `koa.sess` cookie and written back
// when the request changed it. Before, `ctx.session` was undefined and a users-permissions
// extension reading `ctx.session.grant` after every auth route (dev-launchers/strapiv4) answered
// register with a 500.
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeTempProject } from '../helpers/temp-app.js';

const CONTROLLER = `module.exports = {
  hello(ctx) {
    if (ctx.query.add) ctx.session.items = [...(ctx.session.items || []), ctx.query.add];
    if (ctx.query.end) ctx.session = null;
    ctx.body = { items: ctx.session.items || [], redirect: ctx.session.grant?.dynamic?.redirectURL ?? null };
  },
};
`;

const ROUTES = "module.exports = { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello' }] };";

const keygrip = (data: string, key: string) =>
  createHmac('sha1', key).update(data).digest('base64').replace(/\//g, '_').replace(/\+/g, '-').replace(/=+$/, '');

function setCookies(res: request.Response): string[] {
  const header = res.headers['set-cookie'] as unknown;
  return Array.isArray(header) ? (header as string[]) : [];
}

/** the `Cookie` header a browser sends back from an answer's session cookies */
function cookieHeader(res: request.Response): string {
  return setCookies(res)
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

describe('strapi::session: ctx.session from the signed koa.sess cookie', () => {
  let service: TestService;
  const api = () => request(service.app);
  before(async () => {
    const appDir = await writeTempProject({
      ...NOTE_HELLO_API,
      'config/server.js': "module.exports = () => ({ app: { keys: ['first-key', 'second-key'] } });",
      'config/middlewares.js': `module.exports = ['strapi::errors', 'strapi::security', 'strapi::cors',
  { name: 'strapi::session', config: { secure: false } }, 'strapi::query', 'strapi::body', 'strapi::favicon', 'strapi::public'];
`,
      'src/api/note/controllers/note.js': CONTROLLER,
      'src/api/note/routes/hello.js': ROUTES,
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it('keeps what a request put in the session for the next ones, signed under the first key', async () => {
    const first = await api().get('/api/hello?add=apple').expect(200);
    expect(first.body).to.deep.equal({ items: ['apple'], redirect: null });
    const [session, signature] = setCookies(first);
    expect(session).to.match(/^koa\.sess=[^;]+; Max-Age=86400; Path=\/; Expires=[^;]+; HttpOnly$/);
    const value = decodeURIComponent(cookieHeader(first).split('; ')[0]?.slice('koa.sess='.length) ?? '');
    expect(signature?.split(';')[0]).to.equal(`koa.sess.sig=${keygrip(`koa.sess=${value}`, 'first-key')}`);
    const stored = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as Record<string, unknown>;
    expect(stored).to.include({ _maxAge: 86400000 });
    expect(stored.items).to.deep.equal(['apple']);

    const second = await api().get('/api/hello?add=pear').set('Cookie', cookieHeader(first)).expect(200);
    expect(second.body.items).to.deep.equal(['apple', 'pear']);
    const read = await api().get('/api/hello').set('Cookie', cookieHeader(second)).expect(200);
    expect(read.body.items).to.deep.equal(['apple', 'pear']);
    expect(setCookies(read), 'an unchanged session is not written again').to.deep.equal([]);
  });

  it('clears the cookie when the app ends the session', async () => {
    const started = await api().get('/api/hello?add=plum').expect(200);
    const ended = await api().get('/api/hello?end=1').set('Cookie', cookieHeader(started)).expect(200);
    expect(ended.body.items).to.deep.equal([]);
    expect(setCookies(ended)[0]).to.match(/^koa\.sess=; .*Expires=Thu, 01 Jan 1970/);
  });

  it('gives an empty session for a forged or unsigned cookie, and none written for a request that changes nothing', async () => {
    const forged = Buffer.from(JSON.stringify({ items: ['stolen'] })).toString('base64');
    const unsigned = await api().get('/api/hello').set('Cookie', `koa.sess=${forged}`).expect(200);
    expect(unsigned.body.items).to.deep.equal([]);
    const badSignature = await api()
      .get('/api/hello')
      .set('Cookie', `koa.sess=${forged}; koa.sess.sig=${keygrip('koa.sess=other', 'first-key')}`)
      .expect(200);
    expect(badSignature.body.items).to.deep.equal([]);
    const fresh = await api().get('/api/hello').expect(200);
    expect(setCookies(fresh)).to.deep.equal([]);
  });

  it('reads a session signed under the second key and one past its expiry as empty', async () => {
    const value = Buffer.from(
      JSON.stringify({ items: ['kept'], _expire: Date.now() + 60000, _maxAge: 60000 }),
    ).toString('base64');
    const older = await api()
      .get('/api/hello')
      .set('Cookie', `koa.sess=${value}; koa.sess.sig=${keygrip(`koa.sess=${value}`, 'second-key')}`)
      .expect(200);
    expect(older.body.items).to.deep.equal(['kept']);
    const expired = Buffer.from(JSON.stringify({ items: ['old'], _expire: Date.now() - 1000 })).toString('base64');
    const late = await api()
      .get('/api/hello')
      .set('Cookie', `koa.sess=${expired}; koa.sess.sig=${keygrip(`koa.sess=${expired}`, 'first-key')}`)
      .expect(200);
    expect(late.body.items).to.deep.equal([]);
  });
});

describe('without strapi::session in config/middlewares', () => {
  it('ctx.session is undefined, as in Koa without koa-session', async () => {
    const appDir = await writeTempProject({
      ...NOTE_HELLO_API,
      'config/middlewares.js':
        "module.exports = ['strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::query', 'strapi::body', 'strapi::favicon', 'strapi::public'];",
      'src/api/note/controllers/note.js':
        'module.exports = { hello(ctx) { ctx.body = { type: typeof ctx.session }; } };',
      'src/api/note/routes/hello.js': ROUTES,
    });
    const service = await createTestService({ appDir });
    try {
      const res = await request(service.app).get('/api/hello').expect(200);
      expect(res.body).to.deep.equal({ type: 'undefined' });
    } finally {
      await service.close();
    }
  });
});
