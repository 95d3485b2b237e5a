// A Strapi v4 project customising the upload plugin the common ways: seeding files from its
// bootstrap with `strapi.plugin('upload').service('upload').upload({ data, files })` (files read
// from the project's own folder, which the image formats made from them must not be left in).
import { mkdir, mkdtemp, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { png } from '../helpers/media-app.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';

const BOOTSTRAP = `
const { join } = require('node:path');
const { statSync } = require('node:fs');
module.exports = {
  async bootstrap({ strapi }) {
    const path = join(__dirname, '..', 'data', 'cover.png');
    const file = { path, name: 'cover.png', type: 'image/png', size: statSync(path).size };
    const [cover] = await strapi.plugin('upload').service('upload').upload({
      data: { fileInfo: { alternativeText: 'The cover' } },
      files: file,
    });
    await strapi.entityService.create('api::album.album', { data: { title: 'First', cover: cover.id } });
  },
};
`;

describe('a project customising the upload plugin (bootstrap seeding)', () => {
  let service: TestService;
  let appDir: string;
  let token: string;
  before(async () => {
    appDir = await mkdtemp(join(tmpdir(), 'cs-upload-ext-'));
    await writeFiles(appDir, {
      'src/api/album/content-types/album/schema.json': JSON.stringify({
        kind: 'collectionType',
        collectionName: 'albums',
        info: { singularName: 'album', pluralName: 'albums', displayName: 'Album' },
        options: { draftAndPublish: false },
        attributes: { title: { type: 'string' }, cover: { type: 'media', multiple: false } },
      }),
      'src/api/album/routes/album.js': `module.exports = require('@strapi/strapi').factories.createCoreRouter('api::album.album');`,
      'src/index.js': BOOTSTRAP,
    });
    await mkdir(join(appDir, 'data'));
    await writeFile(join(appDir, 'data', 'cover.png'), await png(400, 300));
    service = await createTestService({ appDir });
    token = (await createApiToken(service.context, { name: 'uploads', type: 'full-access' })).accessKey;
  });
  after(() => service.close());
  const api = () => request(service.app);
  const auth = () => ({ Authorization: `Bearer ${token}` });

  it("stores what bootstrap uploads from the project's folder, formats and all, and leaves that folder as it was", async () => {
    const res = await api().get('/api/albums?populate=cover').set(auth()).expect(200);
    const cover = res.body.data[0].attributes.cover.data.attributes;
    expect(cover).to.include({
      name: 'cover.png',
      alternativeText: 'The cover',
      width: 400,
      height: 300,
      mime: 'image/png',
    });
    expect(Object.keys(cover.formats)).to.deep.equal(['thumbnail']);
    expect(await readdir(join(appDir, 'data'))).to.deep.equal(['cover.png']);
    expect((await stat(join(appDir, 'data', 'cover.png'))).size).to.be.greaterThan(0);
  });
});

const EXTENSION = `
module.exports = (plugin) => {
  const upload = plugin.controllers['content-api'].upload;
  plugin.controllers['content-api'].upload = async (ctx) => {
    await upload(ctx);
    ctx.body = ctx.body.map((file) => ({ ...file, via: 'extension' }));
  };
  plugin.controllers['content-api'].find = async (ctx) => ctx.forbidden('no listing');
  const uploadService = plugin.services.upload;
  plugin.services.upload = ({ strapi }) => ({ ...uploadService({ strapi }), hello: () => 'upload says hi' });
  return plugin;
};
`;

// Strapi 4.26's upload plugin: its content-API routes name the `content-api` controller's actions
// (upload, find, findOne, destroy), which `src/extensions/upload/strapi-server` may wrap or replace.
describe('a project extending the upload plugin (src/extensions/upload/strapi-server.js)', () => {
  let service: TestService;
  let token: string;
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-upload-ext-'));
    await writeFiles(appDir, {
      'src/api/album/content-types/album/schema.json': JSON.stringify({
        kind: 'collectionType',
        collectionName: 'albums',
        info: { singularName: 'album', pluralName: 'albums', displayName: 'Album' },
        options: { draftAndPublish: false },
        attributes: { title: { type: 'string' }, cover: { type: 'media', multiple: false } },
      }),
      'src/api/album/controllers/album.js': `module.exports = require('@strapi/strapi').factories.createCoreController('api::album.album', ({ strapi }) => ({
        hello() { return { hello: strapi.plugin('upload').service('upload').hello() }; },
      }));`,
      'src/api/album/routes/album.js': `module.exports = require('@strapi/strapi').factories.createCoreRouter('api::album.album');`,
      'src/api/album/routes/01-hello.js': `module.exports = { routes: [{ method: 'GET', path: '/albums-hello', handler: 'album.hello', config: { auth: false } }] };`,
      'src/extensions/upload/strapi-server.js': EXTENSION,
    });
    service = await createTestService({ appDir });
    token = (await createApiToken(service.context, { name: 'uploads', type: 'full-access' })).accessKey;
  });
  after(() => service.close());
  const api = () => request(service.app);
  const auth = () => ({ Authorization: `Bearer ${token}` });

  it("answers POST /api/upload through the app's wrapper around the plugin's own action, files and fileInfo read", async () => {
    const res = await api()
      .post('/api/upload')
      .set(auth())
      .field('fileInfo', JSON.stringify({ alternativeText: 'A dot' }))
      .attach('files', await png(20, 20), 'dot.png')
      .expect(200);
    expect(res.body).to.have.length(1);
    expect(res.body[0]).to.include({ name: 'dot.png', alternativeText: 'A dot', via: 'extension' });
    const stored = await api()
      .get(`/api/upload/files/${String(res.body[0].id)}`)
      .set(auth())
      .expect(200);
    expect(stored.body).to.include({ name: 'dot.png' }).and.not.have.property('via');
  });

  it("answers with the app's replacement action, and still checks the route's permission first", async () => {
    const refused = await api().get('/api/upload/files').set(auth()).expect(403);
    expect(refused.body.error.message).to.equal('no listing');
    await api().get('/api/upload/files/1').expect(403);
  });

  it("gives the app's wrapped upload service to strapi.plugin('upload').service('upload')", async () => {
    expect((await api().get('/api/albums-hello').expect(200)).body).to.deep.equal({ hello: 'upload says hi' });
  });
});
