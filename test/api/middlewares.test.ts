import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { ConfigError } from '../../src/config/index.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempApp } from '../helpers/temp-app.js';

const NOTE = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  attributes: { text: { type: 'string' } },
};
const PERMISSIONS = { public: ['api::note.note.find', 'api::note.note.create'] };
// a one-pixel PNG
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
).toString('latin1');

async function serviceWith(files: Record<string, string>): Promise<TestService> {
  const appDir = await writeTempApp({ api: { note: NOTE }, config: { permissions: PERMISSIONS }, files });
  return createTestService({ appDir });
}

async function startFailure(files: Record<string, string>): Promise<string> {
  try {
    const service = await serviceWith(files);
    await service.close();
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('the service started');
}

describe('config/middlewares: Strapi v4 default list (no file)', () => {
  let service: TestService;
  before(async () => {
    service = await serviceWith({
      'public/robots.txt': 'User-agent: *\n',
      'public/.hidden': 'secret',
      'favicon.png': PNG,
    });
  });
  after(() => service.close());

  it('answers any origin: the request origin reflected with credentials, Vary: Origin always', async () => {
    const res = await request(service.app).get('/api/notes').set('Origin', 'http://front.example').expect(200);
    expect(res.headers['access-control-allow-origin']).to.equal('http://front.example');
    expect(res.headers['access-control-allow-credentials']).to.equal('true');
    expect(res.headers.vary).to.equal('Origin');
    const plain = await request(service.app).get('/api/notes').expect(200);
    expect(plain.headers['access-control-allow-origin']).to.equal('');
    expect(plain.headers.vary).to.equal('Origin');
  });

  it("answers a preflight 204 with Strapi's methods, headers and max age (no X-Powered-By, as Strapi)", async () => {
    const res = await request(service.app)
      .options('/api/notes')
      .set('Origin', 'http://front.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,authorization')
      .expect(204);
    expect(res.headers).to.include({
      'access-control-allow-origin': 'http://front.example',
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS',
      'access-control-allow-headers': 'Content-Type,Authorization,Origin,Accept',
      'access-control-max-age': '31536000',
    });
    expect(res.headers).not.to.have.property('x-powered-by');
    // an OPTIONS that is no preflight goes on to the routes: 200 with Allow, as koa-router answers
    const other = await request(service.app).options('/api/notes').set('Origin', 'http://front.example').expect(200);
    expect(other.headers.allow).to.equal('HEAD, GET, POST');
    expect(other.text).to.equal('');
    const wrong = await request(service.app).patch('/api/notes/1').expect(405);
    expect(wrong.headers.allow).to.equal('HEAD, GET, PUT, DELETE');
  });

  it("sends Strapi's security headers and X-Powered-By", async () => {
    const res = await request(service.app).get('/api/notes').expect(200);
    expect(res.headers['x-powered-by']).to.equal('Strapi <strapi.io>');
    expect(res.headers).to.include({
      'x-frame-options': 'SAMEORIGIN',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-permitted-cross-domain-policies': 'none',
    });
    for (const absent of [
      'x-xss-protection',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
      'origin-agent-cluster',
    ])
      expect(res.headers, absent).not.to.have.property(absent);
    const csp = String(res.headers['content-security-policy']).split(';').sort();
    expect(csp).to.deep.equal(
      [
        "connect-src 'self' https:",
        "img-src 'self' data: blob: https://market-assets.strapi.io",
        "media-src 'self' data: blob:",
        "default-src 'self'",
        "base-uri 'self'",
        "font-src 'self' https: data:",
        "form-action 'self'",
        "frame-ancestors 'self'",
        "object-src 'none'",
        "script-src 'self'",
        "script-src-attr 'none'",
        "style-src 'self' https: 'unsafe-inline'",
      ].sort(),
    );
    const page = await request(service.app).get('/graphql').set('Accept', 'text/html');
    expect(String(page.headers['content-security-policy'])).to.include(
      "script-src 'self' 'unsafe-inline' cdn.jsdelivr.net",
    );
  });

  it('serves public/ after the routes (no dot files; /uploads is served by the upload plugin), an index page at /, and the favicon', async () => {
    const robots = await request(service.app).get('/robots.txt').expect(200);
    expect(robots.text).to.equal('User-agent: *\n');
    expect(robots.headers['cache-control']).to.equal('public, max-age=60');
    await request(service.app).get('/.hidden').expect(404);
    await request(service.app).get('/uploads/x.txt').expect(404);
    const index = await request(service.app).get('/').expect(200);
    expect(index.headers['content-type']).to.match(/^text\/html/);
    expect(index.text).to.include('Content Service is running');
    const icon = await request(service.app).get('/favicon.ico').expect(200);
    expect(icon.headers['content-type']).to.equal('image/x-icon');
    expect(icon.headers['cache-control']).to.equal('public, max-age=86400');
  });

  it('parses JSON (1mb), url-encoded forms and answers 413 past the limit', async () => {
    await request(service.app)
      .post('/api/notes')
      .send({ data: { text: 'json' } })
      .expect(200);
    const form = await request(service.app).post('/api/notes').type('form').send('data[text]=form').expect(200);
    expect(form.body.data.attributes.text).to.equal('form');
    const big = await request(service.app)
      .post('/api/notes')
      .send({ data: { text: 'x'.repeat(1_100_000) } })
      .expect(413);
    expect(big.body).to.deep.equal({
      data: null,
      error: { status: 413, name: 'PayloadTooLargeError', message: 'request entity too large' },
    });
  });

  it('reads bodies as koa-body does: any charset as UTF-8, gzip inflated, an unknown encoding 415', async () => {
    const latin = await request(service.app)
      .post('/api/notes')
      .set('Content-Type', 'application/json; charset=ISO-8859-1')
      .send(JSON.stringify({ data: { text: 'café' } }))
      .expect(200);
    expect(latin.body.data.attributes.text).to.equal('café');
    const zipped = await request(service.app)
      .post('/api/notes')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize((body: Buffer) => body as unknown as string) // superagent would JSON-encode a Buffer
      .send(gzipSync(JSON.stringify({ data: { text: 'zipped' } })))
      .expect(200);
    expect(zipped.body.data.attributes.text).to.equal('zipped');
    const before = await request(service.app).get('/api/notes').expect(200);
    const unknown = await request(service.app)
      .post('/api/notes')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'bogus')
      .send(JSON.stringify({ data: { text: 'never' } }))
      .expect(415);
    expect(unknown.body).to.deep.equal({
      data: null,
      error: { status: 415, name: 'Error', message: 'Unsupported Content-Encoding: bogus' },
    });
    const after = await request(service.app).get('/api/notes').expect(200);
    expect(after.body.meta.pagination.total).to.equal(before.body.meta.pagination.total);
  });
});

describe('config/middlewares: an app list with options', () => {
  let service: TestService;
  before(async () => {
    service = await serviceWith({
      'public/robots.txt': 'User-agent: *\n',
      'config/middlewares.ts': `export default [
        'strapi::logger',
        'strapi::errors',
        'strapi::security',
        { name: 'strapi::cors', config: { origin: ['http://allowed.example', 'http://other.example'], expose: ['X-Total'], maxAge: 600 } },
        { name: 'strapi::poweredBy', config: { poweredBy: 'Content <service>' } },
        'strapi::responseTime',
        'strapi::session',
        'strapi::query',
        { name: 'strapi::body', config: { jsonLimit: '200b' } },
        'strapi::favicon',
        { name: 'strapi::public', config: { defaultIndex: false } },
      ];`,
    });
  });
  after(() => service.close());

  it('allows listed origins only: others get no CORS headers, and their preflight is not answered', async () => {
    const ok = await request(service.app).get('/api/notes').set('Origin', 'http://other.example').expect(200);
    expect(ok.headers['access-control-allow-origin']).to.equal('http://other.example');
    expect(ok.headers['access-control-expose-headers']).to.equal('X-Total');
    const refused = await request(service.app).get('/api/notes').set('Origin', 'http://evil.example').expect(200);
    expect(refused.headers).not.to.have.property('access-control-allow-origin');
    expect(refused.headers.vary).to.equal('Origin');
    const preflight = await request(service.app)
      .options('/api/notes')
      .set('Origin', 'http://evil.example')
      .set('Access-Control-Request-Method', 'POST')
      .expect(200);
    expect(preflight.headers.allow).to.equal('HEAD, GET, POST');
    expect(preflight.headers).not.to.have.property('access-control-allow-origin');
    const allowed = await request(service.app)
      .options('/api/notes')
      .set('Origin', 'http://allowed.example')
      .set('Access-Control-Request-Method', 'PUT')
      .expect(204);
    expect(allowed.headers['access-control-max-age']).to.equal('600');
  });

  it('applies the other entries: poweredBy, responseTime, jsonLimit, defaultIndex false', async () => {
    const res = await request(service.app).get('/api/notes').expect(200);
    expect(res.headers['x-powered-by']).to.equal('Content <service>');
    expect(res.headers['x-response-time']).to.match(/^\d+ms$/);
    await request(service.app)
      .post('/api/notes')
      .send({ data: { text: 'y'.repeat(300) } })
      .expect(413);
    await request(service.app).get('/robots.txt').expect(404);
    await request(service.app).get('/').expect(404);
  });
});

describe('config/middlewares: strapi::responses handlers', () => {
  const REQUIRED =
    "'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::query', 'strapi::body', 'strapi::public', 'strapi::favicon'";
  let service: TestService;
  before(async () => {
    service = await serviceWith({
      // as Strapi v4's: after the chain answered, the handler of the answer's status runs
      'config/middlewares.js': `module.exports = [${REQUIRED}, {
        name: 'strapi::responses',
        config: {
          handlers: {
            404: (ctx) => { ctx.body = { message: 'nothing at ' + ctx.path }; ctx.status = 404; },
            200: async (ctx) => { ctx.set('X-Handled', String(ctx.status)); },
            403: 'not a function',
          },
        },
      }];`,
    });
  });
  after(() => service.close());

  it("runs the handler of the answer's status, which may change it; a status without a function is left as it is", async () => {
    const missing = await request(service.app).get('/api/nowhere');
    expect(missing.status).to.equal(404);
    expect(missing.body).to.deep.equal({ message: 'nothing at /api/nowhere' });
    const found = await request(service.app).get('/api/notes');
    expect(found.status).to.equal(200);
    expect(found.headers['x-handled']).to.equal('200');
    expect(found.body.data).to.deep.equal([]);
    const refused = await request(service.app).delete('/api/notes/1');
    expect(refused.status).to.equal(403);
    expect(refused.body.error.name).to.equal('ForbiddenError');
  });
});

describe('config/middlewares: origin functions and strings, ip filter', () => {
  it('calls an origin function with a Koa-like ctx, and splits a comma-separated string', async () => {
    const fn = await serviceWith({
      'config/middlewares.js': `module.exports = ['strapi::errors', 'strapi::security',
        { name: 'strapi::cors', config: { origin: (ctx) => ctx.get('Origin').endsWith('.trusted.example') ? ctx.request.header.origin : false } },
        'strapi::query', 'strapi::body', 'strapi::favicon', 'strapi::public'];`,
    });
    try {
      const ok = await request(fn.app).get('/api/notes').set('Origin', 'https://a.trusted.example');
      expect(ok.headers['access-control-allow-origin']).to.equal('https://a.trusted.example');
      const no = await request(fn.app).get('/api/notes').set('Origin', 'https://a.example');
      expect(no.headers).not.to.have.property('access-control-allow-origin');
    } finally {
      await fn.close();
    }
    const text = await serviceWith({
      'config/middlewares.js': `module.exports = ['strapi::errors', 'strapi::security',
        { name: 'strapi::cors', config: { origin: 'http://a.example, http://b.example', credentials: false } },
        'strapi::query', 'strapi::body', 'strapi::favicon', 'strapi::public'];`,
    });
    try {
      const ok = await request(text.app).get('/api/notes').set('Origin', 'http://b.example');
      expect(ok.headers['access-control-allow-origin']).to.equal('http://b.example');
      expect(ok.headers).not.to.have.property('access-control-allow-credentials');
      const no = await request(text.app).get('/api/notes').set('Origin', 'http://c.example');
      expect(no.headers).not.to.have.property('access-control-allow-origin');
    } finally {
      await text.close();
    }
  });

  it('strapi::ip refuses a blacklisted address with a 403 in Strapi shape', async () => {
    const service = await serviceWith({
      'config/middlewares.js': `module.exports = ['strapi::errors', 'strapi::security', 'strapi::cors',
        { name: 'strapi::ip', config: { blacklist: ['127\\\\.0\\\\.0\\\\.1'] } },
        'strapi::query', 'strapi::body', 'strapi::favicon', 'strapi::public'];`,
    });
    try {
      const res = await request(service.app).get('/api/notes').expect(403);
      expect(res.body).to.deep.equal({
        data: null,
        error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} },
      });
    } finally {
      await service.close();
    }
  });
});

describe("config/middlewares: a plugin's middleware (plugin::<plugin>.<name>)", () => {
  const REQUIRED =
    "'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::query', 'strapi::body', 'strapi::favicon', 'strapi::public'";
  let service: TestService;
  before(async () => {
    service = await serviceWith({
      'config/plugins.js': "module.exports = { stamp: { enabled: true, resolve: './src/plugins/stamp' } };",
      'src/plugins/stamp/strapi-server.js': `module.exports = {
        middlewares: {
          stamp: (config, { strapi }) => async (ctx, next) => {
            await next();
            ctx.set('X-Stamp', config.value + ':' + typeof strapi.plugin);
          },
        },
      };`,
      'config/middlewares.js': `module.exports = [${REQUIRED}, { name: 'plugin::stamp.stamp', config: { value: 'on' } }, 'plugin::users-permissions.rateLimit'];`,
    });
  });
  after(() => service.close());

  it("runs a local plugin's middleware factory with the entry's config and { strapi }, and a built-in plugin's", async () => {
    const res = await request(service.app).get('/api/notes').expect(200);
    expect(res.headers['x-stamp']).to.equal('on:function');
  });
});

describe('config/middlewares: entries that stop start-up', () => {
  const REQUIRED =
    "'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::query', 'strapi::body', 'strapi::favicon', 'strapi::public'";
  const cases: Array<[string, string, RegExp]> = [
    [
      'a global:: middleware without its file',
      `module.exports = [${REQUIRED}, 'global::cache'];`,
      /^config\/middlewares\.js: middleware "global::cache" is not found: no file src\/middlewares\/cache\.\{ts,js\}$/,
    ],
    [
      'a resolved middleware that is no file and no package',
      `module.exports = [${REQUIRED}, { resolve: './src/middlewares/guard.js', config: {} }];`,
      /middleware "\.\/src\/middlewares\/guard\.js" is neither a file of the app \(from .*\) nor an installed package$/,
    ],
    [
      'an api:: middleware without its file',
      `module.exports = [${REQUIRED}, 'api::article.cache'];`,
      /"api::article\.cache" is not found: no file src\/api\/article\/middlewares\/cache\.\{ts,js\}$/,
    ],
    [
      'the middleware of a plugin that is not there',
      `module.exports = [${REQUIRED}, 'plugin::sentry.errors'];`,
      /^config\/middlewares\.js: middleware "plugin::sentry\.errors" is not found: the plugin "sentry" is not installed, or is turned off$/,
    ],
    [
      'a middleware a plugin does not have',
      `module.exports = [${REQUIRED}, { name: 'plugin::users-permissions.guard', config: {} }];`,
      /^config\/middlewares\.js: middleware "plugin::users-permissions\.guard" is not found: the plugin "users-permissions" has no middleware "guard" \(its middlewares: rateLimit\)$/,
    ],
    [
      'a name of no known form',
      `module.exports = [${REQUIRED}, 'my-middleware'];`,
      /middleware "my-middleware" is unknown: name strapi::<name>, global::<name>/,
    ],
    [
      'an unknown strapi:: name',
      `module.exports = [${REQUIRED}, 'strapi::gzip'];`,
      /unknown middleware "strapi::gzip"; Strapi v4's are /,
    ],
    [
      'a list without required entries',
      "module.exports = ['strapi::errors', 'strapi::cors', 'strapi::query', 'strapi::body'];",
      /misses required middlewares .*: add strapi::security, strapi::public, strapi::favicon/,
    ],
    [
      'strapi::responses handlers that are no object',
      `module.exports = [${REQUIRED}, { name: 'strapi::responses', config: { handlers: [(ctx) => {}] } }];`,
      /strapi::responses\.handlers.*must be an object of status codes to functions/,
    ],
  ];
  for (const [what, text, message] of cases) {
    it(`stops on ${what}, naming it`, async () => {
      expect(await startFailure({ 'config/middlewares.js': text })).to.match(message);
    });
  }

  it('stops on a middleware whose factory throws, naming its file', async () => {
    const message = await startFailure({
      'config/middlewares.js': `module.exports = [${REQUIRED}, { name: 'global::keyed', config: {} }];`,
      'src/middlewares/keyed.js': "module.exports = () => { throw new Error('KEY is not set'); };",
    });
    expect(message).to.equal(
      'src/middlewares/keyed.js: the middleware factory of "global::keyed" failed: KEY is not set',
    );
  });

  it('stops on a middleware module that exports no factory, naming its file', async () => {
    const message = await startFailure({
      'config/middlewares.js': `module.exports = [${REQUIRED}, 'global::plain'];`,
      'src/middlewares/plain.js': 'module.exports = { enabled: true };',
    });
    expect(message).to.match(/^src\/middlewares\/plain\.js: must export a middleware factory \(config, \{ strapi \}\)/);
  });
});
