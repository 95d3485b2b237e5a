// The Media Library's folders as Strapi 4.26 keeps them: files uploaded through the content API
// (POST /api/upload, the files of an entry write, GraphQL, uploadToEntity) go into the "API
// Uploads" folder, made once and remembered in the core store; a file's `folder` and `folderPath`
// are private (never answered to clients or in media events) but app code reads and filters them;
// the upload service takes a folder from app code and refuses one that does not exist.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createServer } from '../../src/app.js';
import { createMediaApp, png, TEXT, type MediaApp } from '../helpers/media-app.js';
import { testServerUri } from '../helpers/server.js';

type Entry = Record<string, unknown> & { id: number };

/** What these tests use of the app's `strapi` object. */
interface AppStrapi {
  entityService: {
    findMany(uid: string, params?: Record<string, unknown>): Promise<Entry[]>;
    delete(uid: string, id: number): Promise<unknown>;
    create(uid: string, params: { data: Record<string, unknown> }): Promise<Entry>;
  };
  db: { query(uid: string): { findMany(params?: Record<string, unknown>): Promise<Entry[]> } };
  query(uid: string): { findOne(params: Record<string, unknown>): Promise<Entry | null> };
  plugin(name: 'upload'): { service(name: 'upload'): UploadService };
  eventHub: { on(event: string, listener: (payload: { media: Entry }) => void): void };
}

interface UploadService {
  upload(params: { data: Record<string, unknown>; files: unknown }): Promise<Entry[]>;
  uploadToEntity(params: { id: number; model: string; field: string }, files: unknown): Promise<Entry[]>;
  updateFileInfo(id: number, info: Record<string, unknown>): Promise<Entry>;
  replace(id: number, params: { data: Record<string, unknown>; file: unknown }): Promise<Entry>;
}

const FILE = 'plugin::upload.file';
const FOLDER = 'plugin::upload.folder';

/** A media app with code of its own, so that `globalThis.strapi` is its app object. */
async function startApp(): Promise<{ media: MediaApp; strapi: AppStrapi }> {
  const media = await createMediaApp({}, { graphql: { enabled: true } }, (dir) => {
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src', 'index.js'), 'module.exports = { register() {}, bootstrap() {} };\n');
  });
  return { media, strapi: globalThis.strapi as unknown as AppStrapi };
}

describe('upload plugin: folders (the "API Uploads" folder, folderPath)', function () {
  this.timeout(30_000);
  let media: MediaApp;
  let strapi: AppStrapi;
  const events: Entry[] = [];
  const upload = () => request(media.service.app).post('/api/upload').set(media.auth);
  /** a file on disk, as formidable gives it to app code */
  const onDisk = (name: string, bytes: Buffer) => {
    const path = join(media.uploads, '..', `${media.uploads.split('/').pop()}-${name}`);
    writeFileSync(path, bytes);
    return { path, name, type: name.endsWith('.png') ? 'image/png' : 'text/plain', size: bytes.length };
  };
  const placeOf = async (id: number) => {
    const file = await strapi.query(FILE).findOne({ where: { id }, populate: ['folder'] });
    return { folderPath: file?.folderPath, folder: (file?.folder as Entry | null)?.id ?? null };
  };

  before(async () => {
    ({ media, strapi } = await startApp());
    strapi.eventHub.on('media.create', ({ media: file }) => events.push(file));
  });
  after(() => media.service.close());

  it('puts parallel first uploads into one "API Uploads" folder, remembered as Strapi remembers it', async () => {
    const answers = await Promise.all(
      ['one.txt', 'two.txt', 'three.txt', 'four.txt'].map((name) => upload().attach('files', TEXT, name)),
    );
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const folders = await strapi.db.query(FOLDER).findMany({});
    expect(folders).to.have.length(1);
    expect(folders[0]).to.include({ name: 'API Uploads', pathId: 1, path: '/1' });
    const files = await strapi.entityService.findMany(FILE, {
      fields: ['name', 'folderPath'],
      populate: { folder: { fields: ['name'] } },
      sort: 'id',
    });
    expect(files.map((f) => [f.name, f.folderPath, (f.folder as Entry).name])).to.deep.equal(
      ['one.txt', 'two.txt', 'three.txt', 'four.txt']
        .map((name) => [name, '/1', 'API Uploads'])
        .sort((a, b) => files.findIndex((f) => f.name === a[0]) - files.findIndex((f) => f.name === b[0])),
    );
    expect(files).to.have.length(4);
    const remembered = await media.service.context.connection
      .collection('strapi_core_store_settings')
      .findOne({ key: 'plugin_upload_api-folder' });
    expect(remembered?.value).to.deep.equal({ id: folders[0]!.id });
  });

  it('never answers folder or folderPath to clients, nor in media events; a client cannot pick the folder', async () => {
    const res = await upload()
      .field('fileInfo', JSON.stringify([{ name: 'a.png', folder: 99 }, { folder: 99 }]))
      .attach('files', await png(300, 200), 'a.png')
      .attach('files', TEXT, 'b.txt');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const answered = res.body as Entry[];
    for (const file of answered) {
      expect(file).to.not.have.any.keys('folder', 'folderPath');
      expect(await placeOf(file.id)).to.deep.equal({ folderPath: '/1', folder: 1 });
    }
    const id = answered[0]!.id;
    const reads = [
      (await request(media.service.app).get('/api/upload/files').set(media.auth).expect(200)).body as Entry[],
      [(await request(media.service.app).get(`/api/upload/files/${id}`).set(media.auth).expect(200)).body as Entry],
      [
        (
          await upload()
            .query({ id })
            .send({ fileInfo: { caption: 'c' } })
            .expect(200)
        ).body as Entry,
      ],
    ];
    for (const file of reads.flat()) expect(file).to.not.have.any.keys('folder', 'folderPath');
    expect(events.length).to.be.greaterThan(0);
    for (const file of events) expect(file).to.not.have.any.keys('folder', 'folderPath');
    // private: no filter on it over REST, as Strapi's query validation refuses
    const filtered = await request(media.service.app)
      .get('/api/upload/files?filters[folderPath][$eq]=/1')
      .set(media.auth);
    expect(filtered.status).to.equal(400);
  });

  it('puts the files of an entry write, GraphQL uploads and uploadToEntity there too', async () => {
    const created = await request(media.service.app)
      .post('/api/albums')
      .set(media.auth)
      .field('data', JSON.stringify({ title: 'with files' }))
      .attach('files.cover', await png(120, 90), 'cover.png');
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const album = await request(media.service.app)
      .get(`/api/albums/${created.body.data.id}?populate=cover`)
      .set(media.auth)
      .expect(200);
    const cover = album.body.data.attributes.cover.data;
    expect(cover.attributes).to.not.have.any.keys('folder', 'folderPath');
    expect(await placeOf(cover.id)).to.deep.equal({ folderPath: '/1', folder: 1 });

    const operations = JSON.stringify({
      query: 'mutation ($file: Upload!) { upload(file: $file) { data { id attributes { name } } } }',
      variables: { file: null },
    });
    const gql = await request(media.service.app)
      .post('/graphql')
      .set(media.auth)
      .set('apollo-require-preflight', 'true')
      .field('operations', operations)
      .field('map', JSON.stringify({ 0: ['variables.file'] }))
      .attach('0', TEXT, 'graphql.txt');
    expect(gql.status, JSON.stringify(gql.body)).to.equal(200);
    expect(await placeOf(Number(gql.body.data.upload.data.id))).to.deep.equal({ folderPath: '/1', folder: 1 });

    const [linked] = await strapi
      .plugin('upload')
      .service('upload')
      .uploadToEntity(
        { id: created.body.data.id, model: 'api::album.album', field: 'photos' },
        onDisk('p.png', await png(90, 60)),
      );
    expect(await placeOf(linked!.id)).to.deep.equal({ folderPath: '/1', folder: 1 });
    expect(await strapi.db.query(FOLDER).findMany({})).to.have.length(1);
  });

  it("takes app code's folder (none: the root), refuses one that does not exist, moves and keeps files", async () => {
    const service = strapi.plugin('upload').service('upload');
    const [atRoot] = await service.upload({ data: {}, files: onDisk('root.txt', TEXT) });
    expect(atRoot).to.include({ folderPath: '/' });
    expect(await placeOf(atRoot!.id)).to.deep.equal({ folderPath: '/', folder: null });
    const [filed] = await service.upload({ data: { fileInfo: { folder: 1 } }, files: onDisk('filed.txt', TEXT) });
    expect(await placeOf(filed!.id)).to.deep.equal({ folderPath: '/1', folder: 1 });

    const before = (await strapi.entityService.findMany(FILE, {})).length;
    const missing = await service
      .upload({ data: { fileInfo: { folder: 77 } }, files: onDisk('nowhere.txt', TEXT) })
      .then(
        () => null,
        (err: Error & { name: string }) => err,
      );
    expect(missing?.name).to.equal('ValidationError');
    expect(missing?.message).to.equal('folder 77 does not exist');
    expect(await strapi.entityService.findMany(FILE, {})).to.have.length(before);

    // updateFileInfo with a folder moves the file (the admin's move); without one it stays
    const other = await strapi.entityService.create(FOLDER, { data: { name: 'Covers', pathId: 2, path: '/2' } });
    await service.updateFileInfo(atRoot!.id, { folder: other.id });
    expect(await placeOf(atRoot!.id)).to.deep.equal({ folderPath: '/2', folder: other.id });
    await service.updateFileInfo(atRoot!.id, { caption: 'still there' });
    expect(await placeOf(atRoot!.id)).to.deep.equal({ folderPath: '/2', folder: other.id });
    // new bytes, same place
    await service.replace(atRoot!.id, { data: {}, file: onDisk('again.txt', Buffer.from('new bytes\n')) });
    expect(await placeOf(atRoot!.id)).to.deep.equal({ folderPath: '/2', folder: other.id });
  });

  it('makes the folder again when it was deleted, under a name no root folder has', async () => {
    await strapi.entityService.delete(FOLDER, 1);
    await strapi.entityService.create(FOLDER, { data: { name: 'API Uploads', pathId: 3, path: '/3' } });
    const res = await upload().attach('files', TEXT, 'later.txt');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const made = (await strapi.db.query(FOLDER).findMany({ where: { pathId: 4 } }))[0];
    expect(made).to.include({ name: 'API Uploads (1)', path: '/4' });
    expect(await placeOf((res.body as Entry[])[0]!.id)).to.deep.equal({ folderPath: '/4', folder: made!.id });
  });

  it('lets a full-access token read the folders over GraphQL, as Strapi exposes them', async () => {
    const { accessKey } = await createApiToken(media.service.context, { name: 'folders', type: 'full-access' });
    const res = await request(media.service.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${accessKey}`)
      .send({ query: '{ uploadFolders(sort: "pathId") { data { attributes { name path pathId } } } }' })
      .expect(200);
    expect(res.body.errors).to.equal(undefined);
    expect(res.body.data.uploadFolders.data.map((f: { attributes: Entry }) => f.attributes.name)).to.deep.equal([
      'Covers',
      'API Uploads',
      'API Uploads (1)',
    ]);
  });
});

describe('upload plugin: when the "API Uploads" folder is made', function () {
  this.timeout(60_000);

  it('is not made by a first upload whose body is refused', async () => {
    const media = await createMediaApp();
    try {
      const res = await request(media.service.app)
        .post('/api/upload')
        .set(media.auth)
        .field('fileInfo', '{"name": 12')
        .attach('files', TEXT, 'bad.txt');
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      const db = media.service.context.connection;
      expect(await db.collection('upload_folders').countDocuments()).to.equal(0);
      expect(
        await db.collection('strapi_core_store_settings').countDocuments({ key: 'plugin_upload_api-folder' }),
      ).to.equal(0);
    } finally {
      await media.service.close();
    }
  });

  it('answers every first upload of both (each takes the next pathId again when the other took it)', async () => {
    let appDir = '';
    const media = await createMediaApp({}, {}, (dir) => {
      appDir = dir;
    });
    const uri = new URL(testServerUri());
    uri.pathname = `/${media.service.context.connection.name}`;
    const other = await createServer({ appDir, databaseUri: uri.toString() });
    const db = media.service.context.connection;
    try {
      for (let round = 0; round < 6; round++) {
        // every round starts with no folder remembered, as a first upload does
        await db.collection('upload_folders').deleteMany({});
        await db.collection('strapi_core_store_settings').deleteOne({ key: 'plugin_upload_api-folder' });
        const answers = await Promise.all(
          [media.service.app, other.app, media.service.app, other.app].map((app, i) =>
            request(app).post('/api/upload').set(media.auth).attach('files', TEXT, `r${round}-${i}.txt`),
          ),
        );
        for (const res of answers) expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const folders = await db.collection('upload_folders').find({}).toArray();
        expect(folders.length).to.be.within(1, 2);
        expect(new Set(folders.map((f) => f.pathId)).size).to.equal(folders.length);
      }
    } finally {
      await other.stop();
      await media.service.close();
    }
  });
});
