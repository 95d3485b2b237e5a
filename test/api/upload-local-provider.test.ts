// A Strapi v4 project with its own upload provider in `providers/` (installed with a `file:`
// dependency, which npm links into node_modules) named by its package name, as Strapi requires a
// community provider, and its own `breakpoints`: the provider gets `init(providerOptions)` and an
// `upload` per file and format, and the formats are the breakpoints smaller than the image.
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { png } from '../helpers/media-app.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempApp } from '../helpers/temp-app.js';

const PROVIDER = `
const calls = [];
module.exports = {
  calls,
  init(options) {
    calls.push(['init', options]);
    const put = (file) => {
      calls.push(['upload', file.hash, typeof file.buffer === 'object' || typeof file.stream === 'object']);
      file.url = options.baseUrl + file.hash + file.ext;
    };
    return {
      uploadStream: put,
      upload: put,
      delete: (file) => {
        calls.push(['delete', file.hash]);
      },
    };
  },
};
`;

describe("upload plugin: a project's own provider package in providers/ (file: dependency), with breakpoints", () => {
  let service: TestService;
  let appDir: string;
  before(async () => {
    appDir = await writeTempApp({
      config: {
        plugins: {
          upload: {
            config: {
              provider: 'strapi-provider-upload-memo',
              providerOptions: { baseUrl: 'https://cdn.example.com/' },
              breakpoints: { small: 300, xlarge: 1920 },
            },
          },
        },
      },
      files: {
        'package.json': JSON.stringify({
          name: 'own-provider',
          dependencies: { 'strapi-provider-upload-memo': 'file:providers/strapi-provider-upload-memo' },
        }),
        'providers/strapi-provider-upload-memo/package.json': JSON.stringify({
          name: 'strapi-provider-upload-memo',
          main: 'index.js',
        }),
        'providers/strapi-provider-upload-memo/index.js': PROVIDER,
      },
    });
    await mkdir(join(appDir, 'node_modules'));
    await symlink(
      join('..', 'providers', 'strapi-provider-upload-memo'),
      join(appDir, 'node_modules', 'strapi-provider-upload-memo'),
    );
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it('stores the file and the formats of the breakpoints it exceeds through the provider', async () => {
    const { accessKey } = await createApiToken(service.context, { name: 'uploads', type: 'full-access' });
    const res = await request(service.app)
      .post('/api/upload')
      .set({ Authorization: `Bearer ${accessKey}` })
      .attach('files', await png(1000, 600), 'wide.png')
      .expect(200);
    const [file] = res.body;
    expect(file.provider).to.equal('strapi-provider-upload-memo');
    expect(file.url).to.equal(`https://cdn.example.com/${String(file.hash)}.png`);
    expect(Object.keys(file.formats).sort()).to.deep.equal(['small', 'thumbnail']);
    expect(file.formats.small).to.include({ width: 300, height: 180 });
    expect(file.formats.small.url).to.equal(`https://cdn.example.com/small_${String(file.hash)}.png`);
    const appRequire = (await import('node:module')).createRequire(join(appDir, 'package.json'));
    const { calls } = appRequire('strapi-provider-upload-memo') as { calls: unknown[][] };
    expect(calls[0]).to.deep.equal(['init', { baseUrl: 'https://cdn.example.com/' }]);
    expect(
      calls
        .slice(1)
        .map((call) => call[1])
        .sort(),
    ).to.deep.equal([file.hash, `small_${String(file.hash)}`, `thumbnail_${String(file.hash)}`].sort());
  });
});
