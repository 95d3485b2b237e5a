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
import { NOTE_HELLO_API, writeFiles } from '../helpers/temp-app.js';

const BOOTSTRAP = `
const { join } = require('node:path');
const { createReadStream, readFileSync, statSync } = require('node:fs');
module.exports = {
  async bootstrap({ strapi }) {
    const path = join(__dirname, '..', 'data', 'cover.png');
    const file = { path, name: 'cover.png', type: 'image/png', size: statSync(path).size };
    const [cover] = await strapi.plugin('upload').service('upload').upload({
      data: { fileInfo: { alternativeText: 'The cover' } },
      files: file,
    });
    const album = await strapi.entityService.create('api::album.album', { data: { title: 'First', cover: cover.id } });
    // the lower steps, as seed scripts call them: formatFileInfo, then uploadFileAndPersist
    const upload = strapi.plugin('upload').service('upload');
    const bytes = readFileSync(path);
    const back = await upload.formatFileInfo(
      { filename: 'back.png', type: 'image/png', size: bytes.length },
      { alternativeText: 'The back' },
      { ref: 'api::album.album', refId: album.id, field: 'back' },
    );
    await upload.uploadFileAndPersist({ ...back, getStream: () => createReadStream(path) });
    const notes = await upload.formatFileInfo({ filename: 'notes.txt', type: 'text/plain', size: 5 });
    await upload.uploadFileAndPersist({ ...notes, buffer: Buffer.from('notes') });
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
        attributes: {
          title: { type: 'string' },
          cover: { type: 'media', multiple: false },
          back: { type: 'media', multiple: false },
        },
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
    const res = await api().get('/api/albums?populate[0]=cover&populate[1]=back').set(auth()).expect(200);
    const cover = res.body.data[0].attributes.cover.data.attributes;
    expect(cover).to.include({
      name: 'cover.png',
      alternativeText: 'The cover',
      width: 400,
      height: 300,
      mime: 'image/png',
    });
    expect(Object.keys(cover.formats)).to.deep.equal(['thumbnail']);
    const back = res.body.data[0].attributes.back.data.attributes;
    expect(back).to.include({ name: 'back.png', alternativeText: 'The back', width: 400, height: 300 });
    expect(Object.keys(back.formats)).to.deep.equal(['thumbnail']);
    const files = await api().get('/api/upload/files?sort=id').set(auth()).expect(200);
    expect(files.body.map((file: { name: string }) => file.name)).to.deep.equal(['cover.png', 'back.png', 'notes.txt']);
    expect(files.body[2]).to.include({ mime: 'text/plain', size: 0.01, ext: '.txt' });
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

describe("the upload service's formatFileInfo, as Strapi 4.26's", () => {
  it('gives the record-to-be: name from fileInfo, ext from the type where the name has none, size in KB, related from metas', async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-upload-format-'));
    await writeFiles(appDir, {
      ...NOTE_HELLO_API,
      'src/api/note/controllers/note.js': `module.exports = {
        async hello(ctx) {
          const upload = strapi.plugin('upload').service('upload');
          const formatted = await upload.formatFileInfo(
            { filename: 'scan', type: 'image/png', size: 123456 },
            { name: 'My Scan', caption: 'c' },
            { ref: 'api::album.album', refId: 4, field: 'cover' },
          );
          const refused = await upload.formatFileInfo({ filename: 'a/b.png', type: 'image/png', size: 1 }).catch((err) => err.name + ': ' + err.message);
          ctx.body = { formatted, refused };
        },
      };`,
      'src/api/note/routes/hello.js': `module.exports = { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello' }] };`,
    });
    const service = await createTestService({ appDir });
    try {
      const { formatted, refused } = (await request(service.app).get('/api/hello').expect(200)).body;
      expect(formatted).to.deep.include({
        name: 'My Scan',
        caption: 'c',
        folderPath: '/',
        ext: '.png',
        mime: 'image/png',
        size: 123.46,
        sizeInBytes: 123456,
        related: [{ id: 4, __type: 'api::album.album', __pivot: { field: 'cover' } }],
      });
      expect(formatted.hash).to.match(/^My_Scan_[0-9a-f]{10}$/);
      expect(refused).to.equal('ApplicationError: File name contains invalid characters');
    } finally {
      await service.close();
    }
  });
});
