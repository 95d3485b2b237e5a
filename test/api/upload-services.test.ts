// Strapi 4.26's upload plugin services as real projects use them: a bootstrap seeding a file from a
// buffer (formatFileInfo + uploadFileAndPersist), an extension wrapping uploadFileAndPersist to add
// a `placeholder` (an attribute the project adds to plugin::upload.file at register), a
// formatFileInfo changed in place to rename files, the image-manipulation and provider services
// called by the app's code, and findPage / findMany / findOne / updateFileInfo / remove. Each
// upload path (POST /api/upload, files.* of an entry write, GraphQL) goes through what the app put
// in place, once per file.
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { png } from '../helpers/media-app.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';

const ALBUM_SCHEMA = JSON.stringify({
  kind: 'collectionType',
  collectionName: 'albums',
  info: { singularName: 'album', pluralName: 'albums', displayName: 'Album' },
  options: { draftAndPublish: false },
  attributes: {
    title: { type: 'string' },
    cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
  },
});

// what the app's wrappers saw, read back through a route of its own
const CALLS = `module.exports = { persisted: [], formatted: [] };`;

const INDEX = `
const calls = require('./calls');
module.exports = {
  register({ strapi }) {
    strapi.contentType('plugin::upload.file').attributes.placeholder = { type: 'text' };
    // renaming files, in place on the service the app's extension made
    const upload = strapi.plugin('upload').service('upload');
    const formatFileInfo = upload.formatFileInfo;
    upload.formatFileInfo = async function (file, fileInfo, metas) {
      const entity = await formatFileInfo.call(this, file, fileInfo, metas);
      calls.formatted.push(file.filename);
      entity.name = entity.name.toLowerCase().replace(/ /g, '-');
      return entity;
    };
  },
  async bootstrap({ strapi }) {
    const album = await strapi.entityService.create('api::album.album', { data: { title: 'Seeded' } });
    const buffer = require('node:fs').readFileSync(require('node:path').join(__dirname, '..', 'data', 'seed.png'));
    const upload = strapi.plugins.upload.services.upload;
    const entity = await upload.formatFileInfo(
      { filename: 'Seed.png', type: 'image/png', size: buffer.length },
      { alternativeText: 'From a buffer' },
      { ref: 'api::album.album', refId: album.id, field: 'cover' },
    );
    Object.assign(entity, { buffer });
    await upload.uploadFileAndPersist(entity, { user: undefined });
  },
};
`;

const EXTENSION = `
const calls = require('../../calls');
module.exports = (plugin) => {
  const factory = plugin.services.upload;
  plugin.services.upload = ({ strapi }) => {
    const base = factory({ strapi });
    return {
      ...base,
      async uploadFileAndPersist(fileData, options) {
        calls.persisted.push({ name: fileData.name, keys: ['filepath', 'getStream', 'hash', 'ext', 'mime', 'size'].filter((k) => k in fileData) });
        if (fileData.mime.startsWith('image/')) {
          const { width, height } = await strapi.plugin('upload').service('image-manipulation').getDimensions(fileData);
          fileData.placeholder = 'blur:' + width + 'x' + height;
        }
        return base.uploadFileAndPersist.call(this, fileData, options);
      },
    };
  };
  return plugin;
};
`;

const TOOLS = `
const calls = require('../../../calls');
module.exports = {
  calls(ctx) {
    ctx.body = calls;
  },
  async probe(ctx) {
    const image = ctx.request.files.image;
    const images = strapi.plugin('upload').service('image-manipulation');
    const tmp = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'probe-'));
    const file = { name: 'probe.png', hash: 'probe_abc', ext: '.png', mime: 'image/png', filepath: image.filepath, tmpWorkingDirectory: tmp };
    const dimensions = await images.getDimensions(file);
    const thumbnail = await images.generateThumbnail({ ...file, ...dimensions });
    const formats = await images.generateResponsiveFormats(file);
    const isFaultyImage = await images.isFaultyImage(file);
    const text = { ...file, filepath: __filename };
    let tooBig;
    try {
      await strapi.plugin('upload').provider.checkFileSize({ name: 'big.bin', size: 300 }, { sizeLimit: 1000 });
    } catch (err) {
      tooBig = err.name + ': ' + err.message;
    }
    const body = {
      dimensions,
      isImage: await images.isImage(file),
      isOptimizableImage: await images.isOptimizableImage(file),
      isResizableImage: await images.isResizableImage(file),
      isFaultyImage,
      textIsImage: await images.isImage(text),
      thumbnail: { name: thumbnail.name, hash: thumbnail.hash, width: thumbnail.width, height: thumbnail.height, stream: typeof thumbnail.getStream },
      formats: formats.map((f) => f && { key: f.key, width: f.file.width, height: f.file.height }),
      tooBig,
      providerService: Object.keys(strapi.plugin('upload').service('provider')).sort(),
    };
    require('node:fs').rmSync(tmp, { recursive: true, force: true });
    ctx.body = body;
  },
  async manage(ctx) {
    const upload = strapi.service('plugin::upload.upload');
    const page = await upload.findPage({ page: 1, pageSize: 2, sort: 'id:asc', fields: ['name'] });
    const pngs = await upload.findMany({ filters: { mime: 'image/png' }, fields: ['name'] });
    const searched = await upload.findMany({ _q: 'SEED', fields: ['name'] });
    const one = await upload.findOne(ctx.params.id);
    const updated = await upload.updateFileInfo(ctx.params.id, { caption: 'Edited', name: null });
    const settings = await upload.getSettings();
    const removed = await upload.remove(await upload.findOne(ctx.params.other));
    ctx.body = { page, pngs: pngs.map((f) => f.name), searched: searched.map((f) => f.name), one: one.name, updated: { name: updated.name, caption: updated.caption }, settings, removed: removed.id };
  },
};
`;

describe("the upload plugin's services as a project uses them (Strapi 4.26's methods, its paths through them)", () => {
  let service: TestService;
  let token: string;
  let uploads: string;
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-upload-services-'));
    uploads = join(appDir, 'public', 'uploads');
    await writeFiles(appDir, {
      'src/api/album/content-types/album/schema.json': ALBUM_SCHEMA,
      'src/api/album/routes/album.js': `module.exports = require('@strapi/strapi').factories.createCoreRouter('api::album.album');`,
      'src/api/album/controllers/tools.js': TOOLS,
      'src/api/album/routes/01-tools.js': `module.exports = { routes: [
        { method: 'GET', path: '/upload-calls', handler: 'tools.calls' },
        { method: 'POST', path: '/probe', handler: 'tools.probe' },
        { method: 'POST', path: '/manage/:id/:other', handler: 'tools.manage' },
      ] };`,
      'src/calls.js': CALLS,
      'src/index.js': INDEX,
      'src/extensions/upload/strapi-server.js': EXTENSION,
    });
    await mkdir(join(appDir, 'data'));
    await writeFile(join(appDir, 'data', 'seed.png'), await png(300, 200));
    service = await createTestService({ appDir });
    token = (await createApiToken(service.context, { name: 'uploads', type: 'full-access' })).accessKey;
  });
  after(() => service.close());
  const api = () => request(service.app);
  const auth = () => ({ Authorization: `Bearer ${token}` });
  const calls = async () =>
    (await api().get('/api/upload-calls').set(auth()).expect(200)).body as {
      persisted: Array<{ name: string; keys: string[] }>;
      formatted: string[];
    };

  it('stores what bootstrap seeds from a buffer, through the wrapped uploadFileAndPersist, into the entry it names', async () => {
    const albums = await api().get('/api/albums?populate=cover').set(auth()).expect(200);
    const cover = albums.body.data[0].attributes.cover.data.attributes;
    expect(cover).to.include({
      name: 'seed.png',
      alternativeText: 'From a buffer',
      width: 300,
      height: 200,
      mime: 'image/png',
      ext: '.png',
      placeholder: 'blur:300x200',
    });
    expect(cover.hash).to.match(/^Seed_[0-9a-f]{10}$/);
    expect(Object.keys(cover.formats)).to.deep.equal(['thumbnail']);
    expect(cover.url).to.equal(`/uploads/${String(cover.hash)}.png`);
    expect(await readdir(uploads)).to.include.members([
      `${String(cover.hash)}.png`,
      `thumbnail_${String(cover.hash)}.png`,
    ]);
  });

  it('runs POST /api/upload through the renaming formatFileInfo and the placeholder wrapper, once per file', async () => {
    const before = await calls();
    const res = await api()
      .post('/api/upload')
      .set(auth())
      .field('fileInfo', JSON.stringify([{ alternativeText: 'one' }, {}]))
      .attach('files', await png(400, 300), 'My Holiday.PNG')
      .attach('files', Buffer.from('just text'), { filename: 'Read Me.txt', contentType: 'text/plain' })
      .expect(200);
    expect(res.body.map((f: { name: string }) => f.name)).to.deep.equal(['my-holiday.png', 'read-me.txt']);
    expect(res.body[0]).to.include({ placeholder: 'blur:400x300', alternativeText: 'one', width: 400 });
    expect(res.body[1]).to.include({ placeholder: null, mime: 'text/plain' });
    const after = await calls();
    expect(after.formatted.slice(before.formatted.length)).to.deep.equal(['My Holiday.PNG', 'Read Me.txt']);
    const persisted = after.persisted.slice(before.persisted.length);
    expect(persisted.map((p) => p.name)).to.deep.equal(['my-holiday.png', 'read-me.txt']);
    // the file data Strapi hands it: the bytes on disk and as a stream, its record-to-be
    expect(persisted[0]?.keys).to.deep.equal(['filepath', 'getStream', 'hash', 'ext', 'mime', 'size']);
    const listed = await api().get('/api/upload/files?sort=id').set(auth()).expect(200);
    expect(listed.body.find((f: { id: number }) => f.id === res.body[0].id)).to.include({
      placeholder: 'blur:400x300',
    });
  });

  it('runs the files of a multipart entry write and a GraphQL upload through them too', async () => {
    const before = await calls();
    const created = await api()
      .post('/api/albums?populate=cover')
      .set(auth())
      .field('data', JSON.stringify({ title: 'With files' }))
      .attach('files.cover', await png(60, 40), 'Cover Art.png')
      .expect(200);
    expect(created.body.data.attributes.cover.data.attributes).to.include({
      name: 'cover-art.png',
      placeholder: 'blur:60x40',
    });
    const gql = await api()
      .post('/graphql')
      .set(auth())
      .field(
        'operations',
        JSON.stringify({
          query: 'mutation ($file: Upload!) { upload(file: $file) { data { id attributes { name placeholder } } } }',
          variables: { file: null },
        }),
      )
      .field('map', JSON.stringify({ 0: ['variables.file'] }))
      .attach('0', await png(30, 30), 'Graph QL.png')
      .expect(200);
    expect(gql.body.errors).to.equal(undefined);
    expect(gql.body.data.upload.data.attributes).to.deep.equal({ name: 'graph-ql.png', placeholder: 'blur:30x30' });
    const after = await calls();
    expect(after.persisted.slice(before.persisted.length).map((p) => p.name)).to.deep.equal([
      'cover-art.png',
      'graph-ql.png',
    ]);
  });

  it('refuses as before, and a refused upload reaches neither wrapper nor storage', async () => {
    const before = await calls();
    const stored = (await readdir(uploads)).length;
    const refused = await api()
      .post('/api/upload')
      .set(auth())
      .attach('files', await png(20, 20), 'fine.png')
      .attach('files', Buffer.from('not a png'), { filename: 'liar.png', contentType: 'image/png' })
      .expect(400);
    expect(refused.body.error.message).to.equal('The content of liar.png is not image/png');
    expect((await calls()).persisted).to.have.length(before.persisted.length);
    expect(await readdir(uploads)).to.have.length(stored);
  });

  it("gives the app's code the image-manipulation and provider services and the plugin's provider", async () => {
    const res = await api()
      .post('/api/probe')
      .set(auth())
      .attach('image', await png(1200, 600), 'probe.png')
      .expect(200);
    expect(res.body).to.deep.equal({
      dimensions: { width: 1200, height: 600 },
      isImage: true,
      isOptimizableImage: true,
      isResizableImage: true,
      isFaultyImage: false,
      textIsImage: false,
      thumbnail: {
        name: 'thumbnail_probe.png',
        hash: 'thumbnail_probe_abc',
        width: 245,
        height: 123,
        stream: 'function',
      },
      formats: [
        { key: 'large', width: 1000, height: 500 },
        { key: 'medium', width: 750, height: 375 },
        { key: 'small', width: 500, height: 250 },
      ],
      tooBig: 'PayloadTooLargeError: big.bin exceeds size limit of 1 KB.',
      providerService: ['checkFileSize', 'upload'],
    });
  });

  it('finds a page, many and one, updates the info and removes a file, as Strapi’s service does', async () => {
    const listed = (await api().get('/api/upload/files?sort=id').set(auth()).expect(200)).body as Array<{
      id: number;
      name: string;
      mime: string;
    }>;
    const [first, second] = listed;
    if (!first || !second) throw new Error('files expected');
    const res = await api().post(`/api/manage/${first.id}/${second.id}`).set(auth()).expect(200);
    expect(res.body.page.pagination).to.deep.equal({
      page: 1,
      pageSize: 2,
      pageCount: Math.ceil(listed.length / 2),
      total: listed.length,
    });
    expect(res.body.page.results.map((f: { name: string }) => f.name)).to.deep.equal([first.name, second.name]);
    expect(res.body.pngs).to.deep.equal(listed.filter((f) => f.mime === 'image/png').map((f) => f.name));
    // `_q`: Strapi's search, a case-insensitive part of a text attribute (the name here)
    expect(res.body.searched).to.deep.equal(listed.filter((f) => /seed/i.test(f.name)).map((f) => f.name));
    expect(res.body.searched).to.include('seed.png');
    expect(res.body).to.deep.include({
      one: first.name,
      updated: { name: first.name, caption: 'Edited' },
      settings: { sizeOptimization: true, responsiveDimensions: true, autoOrientation: false },
      removed: second.id,
    });
    await api().get(`/api/upload/files/${second.id}`).set(auth()).expect(404);
    const edited = await api().get(`/api/upload/files/${first.id}`).set(auth()).expect(200);
    expect(edited.body).to.include({ caption: 'Edited', name: first.name });
  });
});

describe('upload service methods and the provider changed in place in bootstrap', () => {
  it('are what POST /api/upload and the replace of ?id= go through', async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-upload-in-place-'));
    await writeFiles(appDir, {
      'src/api/album/content-types/album/schema.json': ALBUM_SCHEMA,
      'src/index.js': `module.exports = {
        bootstrap({ strapi }) {
          const upload = strapi.plugin('upload').services.upload;
          const uploadFileAndPersist = upload.uploadFileAndPersist;
          upload.uploadFileAndPersist = async function (fileData, options) {
            fileData.caption = 'via bootstrap';
            return uploadFileAndPersist.call(this, fileData, options);
          };
          // the provider object, as some projects extend it (the service stores through it)
          const provider = strapi.plugin('upload').provider;
          const uploadStream = provider.uploadStream;
          provider.extend({
            async uploadStream(file) {
              await uploadStream.call(this, file);
              file.provider_metadata = { via: 'extend', hash: file.hash };
            },
          });
          const enhance = upload.enhanceAndValidateFile;
          upload.enhanceAndValidateFile = async function (file, fileInfo, metas) {
            const data = await enhance.call(this, file, fileInfo, metas);
            data.alternativeText = 'enhanced ' + data.name;
            return data;
          };
        },
      };`,
    });
    const service = await createTestService({ appDir });
    try {
      const { accessKey } = await createApiToken(service.context, { name: 'u', type: 'full-access' });
      const auth = { Authorization: `Bearer ${accessKey}` };
      const res = await request(service.app)
        .post('/api/upload')
        .set(auth)
        .attach('files', await png(10, 10), 'dot.png')
        .expect(200);
      expect(res.body[0]).to.include({ caption: 'via bootstrap', alternativeText: 'enhanced dot.png' });
      expect(res.body[0].provider_metadata).to.deep.equal({ via: 'extend', hash: res.body[0].hash });
      const replaced = await request(service.app)
        .post(`/api/upload?id=${String(res.body[0].id)}`)
        .set(auth)
        .attach('files', await png(12, 12), 'other.png')
        .expect(200);
      // Strapi's replace enhances the file and stores it itself (no uploadFileAndPersist)
      expect(replaced.body).to.include({ name: 'other.png', alternativeText: 'enhanced other.png', width: 12 });
      expect(replaced.body.url).to.equal(res.body[0].url);
    } finally {
      await service.close();
    }
  });
});
