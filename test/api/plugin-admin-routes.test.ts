// A project plugin's admin routes (a router of type 'admin', or a routes array) as Strapi 4.26
// serves them without its admin panel: those with `config.auth: false` answer anyone at
// /<plugin><path>, outside the REST prefix (a health check plugin's `ALL /`); those needing an
// admin's session stay unserved, listed in one info line.
import { METHODS } from 'node:http';
import { expect } from 'chai';
import request from 'supertest';
import { capturingLogger, WARN, type LogLine } from '../helpers/log-capture.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

// routes as an array: Strapi makes them one admin router under /<plugin>
const PULSE_SERVER = `
module.exports = {
  routes: [
    {
      method: 'ALL',
      path: '/',
      handler: [(ctx) => { ctx.body = { message: 'OK', method: ctx.method, type: ctx.state.route.info.type }; }],
      config: { auth: false },
    },
  ],
};
`;

const PANEL_SERVER = `
module.exports = {
  controllers: {
    probe: ({ strapi }) => ({
      ping(ctx) {
        ctx.body = { pong: true, plugin: ctx.state.route.info.pluginName, user: ctx.state.user ?? null };
      },
      echo(ctx) {
        return { echoed: ctx.request.body, id: ctx.params.id };
      },
      secret() {
        return { secret: true };
      },
    }),
  },
  policies: { fromPanel: (policyContext) => policyContext.request.header['x-panel'] === 'yes' },
  routes: {
    admin: {
      type: 'admin',
      routes: [
        { method: 'GET', path: '/ping', handler: 'probe.ping', config: { auth: false } },
        { method: 'POST', path: '/echo/:id', handler: 'probe.echo', config: { auth: false, policies: ['fromPanel'] } },
        { method: 'GET', path: '/secret', handler: 'probe.secret' },
        {
          method: 'GET',
          path: '/guarded',
          handler: 'probe.secret',
          config: { auth: false, policies: ['admin::isAuthenticatedAdmin'] },
        },
      ],
    },
    elsewhere: {
      prefix: '/panel-public',
      routes: [{ method: 'GET', path: '/ping', handler: 'probe.ping', config: { auth: false } }],
    },
    'content-api': {
      type: 'content-api',
      routes: [{ method: 'GET', path: '/ping', handler: 'probe.ping', config: { auth: false } }],
    },
  },
};
`;

async function projectWithAdminRoutes(): Promise<string> {
  return writeTempProject({
    'package.json': JSON.stringify({ name: 'admin-routes-project', dependencies: { '@strapi/strapi': '4.26.2' } }),
    'config/plugins.js': `module.exports = () => ({
      pulse: { enabled: true, resolve: './src/plugins/pulse' },
      panel: { enabled: true, resolve: './src/plugins/panel' },
    });`,
    'src/api/note/content-types/note/schema.json': JSON.stringify({
      kind: 'collectionType',
      collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      attributes: { text: { type: 'string' } },
    }),
    'src/plugins/pulse/strapi-server.js': PULSE_SERVER,
    'src/plugins/panel/strapi-server.js': PANEL_SERVER,
    // what the project's code finds in strapi.server's route lists
    'src/api/note/routes/listed.js':
      "module.exports = { routes: [{ method: 'GET', path: '/listed-routes', handler: 'note.listed', config: { auth: false } }] };",
    'src/api/note/controllers/note.js': `module.exports = require('@strapi/strapi').factories.createCoreController('api::note.note', ({ strapi }) => ({
  listed() {
    const text = (routes) => routes.map((route) => route.methods.join(',') + ' ' + route.path);
    return {
      admin: text(strapi.server.api('admin').listRoutes()),
      all: text(strapi.server.listRoutes()).filter((route) => !route.includes(' /api/')),
    };
  },
}));`,
  });
}

describe("a project plugin's admin routes (Strapi's admin API, without the admin panel)", () => {
  let service: TestService;
  let lines: LogLine[];
  const api = () => request(service.app);
  before(async () => {
    const capture = capturingLogger('info');
    lines = capture.lines;
    service = await createTestService({ appDir: await projectWithAdminRoutes(), logger: capture.logger });
  });
  after(() => service.close());

  it('answers an auth: false route of a routes array at /<plugin>, for every method of ALL', async () => {
    const got = await api().get('/pulse').expect(200);
    expect(got.body).to.deep.equal({ message: 'OK', method: 'GET', type: 'admin' });
    const posted = await api().post('/pulse/').send({}).expect(200);
    expect(posted.body).to.include({ method: 'POST' });
    await api().get('/api/pulse').expect(404);
  });

  it("runs a string handler as the plugin's controller action, without looking at the caller", async () => {
    const res = await api().get('/panel/ping').set('Authorization', 'Bearer not-a-token').expect(200);
    expect(res.body).to.deep.equal({ pong: true, plugin: 'panel', user: null });
  });

  it("runs the route's policies (the plugin's own) and its params and body", async () => {
    await api().post('/panel/echo/7').send({ a: 1 }).expect(403);
    const res = await api().post('/panel/echo/7').set('X-Panel', 'yes').send({ a: 1 }).expect(200);
    expect(res.body).to.deep.equal({ echoed: { a: 1 }, id: '7' });
  });

  it("serves a router's own prefix instead of the plugin's name", async () => {
    expect((await api().get('/panel-public/ping').expect(200)).body).to.include({ pong: true });
  });

  it("keeps the plugin's content-API routes under the REST prefix", async () => {
    expect((await api().get('/api/panel/ping').expect(200)).body).to.include({ pong: true });
  });

  it("lists the served ones in strapi.server.api('admin').listRoutes() and, after the content API's, in listRoutes()", async () => {
    // ALL: every method of Node's http.METHODS, as Koa router's `all` lists them
    const every = ['HEAD', ...METHODS].join(',');
    const served = [`${every} /pulse`, 'HEAD,GET /panel/ping', 'POST /panel/echo/:id', 'HEAD,GET /panel-public/ping'];
    const res = await api().get('/api/listed-routes').expect(200);
    expect({ admin: [...res.body.admin].sort(), all: [...res.body.all].sort() }).to.deep.equal({
      admin: [...served].sort(),
      all: [...served].sort(),
    });
  });

  it("leaves unserved the admin routes that need an admin's session, and says so once", async () => {
    await api().get('/panel/secret').expect(404);
    await api().get('/panel/guarded').expect(404);
    const info = lines.filter((line) => line.level === 30).map((line) => String(line.msg));
    const notServed = info.filter((message) => message.includes('admin routes of plugins are not served'));
    expect(notServed).to.have.length(1);
    expect(notServed[0]).to.match(/: panel$/);
    expect(lines.filter((line) => line.level >= WARN).map((line) => line.msg)).to.deep.equal([]);
  });
});
