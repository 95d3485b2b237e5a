// The "API Uploads" folder deleted by app code (`strapi.db.query('plugin::upload.folder').delete`)
// while an upload that chose it stores its bytes: the file goes into the folder made again, as the
// next upload's would, and its client gets its 200 (the record's write met a folder that no longer
// existed: a 400 'relation(s) of type plugin::upload.folder ... do not exist' about a relation the
// client never sent, its bytes removed). Files already in the deleted folder lose the link, as
// Strapi's database layer deletes a folder's link rows: no file points at a missing folder.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createMediaApp, TEXT, type MediaApp } from '../helpers/media-app.js';

/** A provider that keeps nothing, and runs the module's `whileStoring` hook before it answers. */
const PROVIDER = `module.exports = {
  whileStoring: async () => {},
  init() {
    return {
      async upload(file) { file.url = '/nowhere/' + file.hash + file.ext; await module.exports.whileStoring(); },
      async delete() {},
    };
  },
};
`;

interface AppStrapi {
  db: { query(uid: string): { delete(params: object): Promise<unknown> } };
}

describe('upload plugin: the "API Uploads" folder deleted during an upload', function () {
  this.timeout(20_000);
  let media: MediaApp;
  let strapi: AppStrapi;
  let provider: { whileStoring: () => Promise<void> };

  before(async () => {
    media = await createMediaApp({ provider: 'upload-provider-gate' }, {}, (dir) => {
      mkdirSync(join(dir, 'src'), { recursive: true });
      writeFileSync(join(dir, 'src', 'index.js'), 'module.exports = { register() {}, bootstrap() {} };\n');
      const at = join(dir, 'node_modules', 'upload-provider-gate');
      mkdirSync(at, { recursive: true });
      writeFileSync(join(at, 'package.json'), '{ "name": "upload-provider-gate", "main": "index.js" }');
      writeFileSync(join(at, 'index.js'), PROVIDER);
    });
    strapi = globalThis.strapi as unknown as AppStrapi;
    provider = createRequire(join(media.service.context.config.appDir, 'package.json'))('upload-provider-gate') as {
      whileStoring: () => Promise<void>;
    };
  });
  after(() => media.service.close());

  const db = () => media.service.context.connection;
  const upload = (name: string) =>
    request(media.service.app).post('/api/upload').set(media.auth).attach('files', TEXT, name);

  it('puts the file into the folder made again; the files of the deleted one point nowhere', async () => {
    expect((await upload('first.txt')).status).to.equal(200);
    const [first] = await db().collection('upload_folders').find({}).toArray();
    expect(first).to.include({ name: 'API Uploads' });
    provider.whileStoring = async () => {
      provider.whileStoring = async () => {};
      await strapi.db.query('plugin::upload.folder').delete({ where: { id: first!._id } });
    };
    const res = await upload('second.txt');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);

    const folders = await db().collection('upload_folders').find({}).toArray();
    expect(folders.map((f) => f.name)).to.deep.equal(['API Uploads']);
    expect(folders[0]!._id).to.not.equal(first!._id);
    const files = await db()
      .collection('files')
      .find({}, { sort: { _id: 1 } })
      .toArray();
    expect(files.map((f) => [f.name, f.folder, f.folderPath])).to.deep.equal([
      // as Strapi's database layer leaves it: the link gone, the path as it was
      ['first.txt', null, first!.path],
      ['second.txt', folders[0]!._id, folders[0]!.path],
    ]);
    const remembered = await db().collection('strapi_core_store_settings').findOne({ key: 'plugin_upload_api-folder' });
    expect(remembered?.value).to.deep.equal({ id: folders[0]!._id });
  });
});
