// A relation or media attribute with a `default` (`"default": false`, which real projects' schemas
// carry): Strapi applies defaults to scalar attributes only and connects nothing for such a value,
// so an entry created without the field is created, related to nothing.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';
import { bearer } from './users-permissions/helpers.js';

const SETTINGS = {
  kind: 'collectionType',
  collectionName: 'settings_lists',
  info: { singularName: 'setting', pluralName: 'settings', displayName: 'Setting' },
  options: { draftAndPublish: false },
  attributes: {
    label: { type: 'string', default: 'unnamed' },
    testers: { type: 'relation', relation: 'oneToMany', target: 'plugin::users-permissions.user', default: false },
    logo: { type: 'media', multiple: false, allowedTypes: ['images'], default: false },
  },
};

describe('relation and media attributes with a default', () => {
  let service: TestService;
  let token: string;
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-relation-defaults-'));
    await writeFiles(appDir, {
      'config/permissions.json': '{}',
      'src/api/setting/content-types/setting/schema.json': JSON.stringify(SETTINGS),
    });
    service = await createTestService({ appDir });
    token = (await createApiToken(service.context, { name: 'defaults', type: 'full-access' })).accessKey;
  });
  after(() => service.close());

  it('creates an entry without them, related to nothing; the scalar default still applies', async () => {
    const created = await request(service.app).post('/api/settings').set(bearer(token)).send({ data: {} });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const read = await request(service.app)
      .get(`/api/settings/${created.body.data.id}?populate=*`)
      .set(bearer(token))
      .expect(200);
    expect(read.body.data.attributes).to.include({ label: 'unnamed' });
    expect(read.body.data.attributes.testers).to.deep.equal({ data: [] });
    expect(read.body.data.attributes.logo).to.deep.equal({ data: null });
  });
});
