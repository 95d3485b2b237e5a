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
