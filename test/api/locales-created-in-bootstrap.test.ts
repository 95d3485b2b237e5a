// A project whose bootstrap adds the locales it needs through i18n's locales service (no admin
// panel to add them): `findByCode`, then `create`. The locales created are served at once: listed,
// written in, read with `locale=all`; a bad or repeated one is refused and adds nothing.
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { collectionTypeSchema, writeTempProject } from '../helpers/temp-app.js';

const TERM = {
  ...collectionTypeSchema('term', 'terms', { text: { type: 'string', pluginOptions: { i18n: { localized: true } } } }),
  pluginOptions: { i18n: { localized: true } },
};

const BOOTSTRAP = `
module.exports = {
  async bootstrap({ strapi }) {
    const locales = strapi.plugin('i18n').service('locales');
    for (const [code, name] of [['de', 'German (de)'], ['fr', 'French (fr)']]) {
      if (!(await locales.findByCode(code))) await locales.create({ code, name });
    }
    const refused = [];
    for (const bad of [{ code: 'en', name: 'English again' }, { code: 'not a code' }]) {
      await locales.create(bad).catch((err) => refused.push(err.name + ': ' + err.message));
    }
    strapi.localesRefused = refused;
  },
};
`;

describe("locales created by the project's bootstrap through the i18n locales service", () => {
  let service: TestService;
  let token: string;
  before(async () => {
    const appDir = await writeTempProject({
      'package.json': JSON.stringify({ name: 'glossary', dependencies: {} }),
      'src/api/term/content-types/term/schema.json': JSON.stringify(TERM),
      'src/index.js': BOOTSTRAP,
    });
    service = await createTestService({ appDir });
    token = (await createApiToken(service.context, { name: 'full', type: 'full-access' })).accessKey;
  });
  after(() => service.close());

  const get = (path: string) => request(service.app).get(path).set('Authorization', `Bearer ${token}`);

  it('are listed after the configured one, with the next ids', async () => {
    const res = await get('/api/i18n/locales').expect(200);
    expect(
      res.body.map(({ id, code, name, isDefault }: Record<string, unknown>) => ({ id, code, name, isDefault })),
    ).to.deep.equal([
      { id: 1, code: 'en', name: 'English (en)', isDefault: true },
      { id: 2, code: 'de', name: 'German (de)', isDefault: false },
      { id: 3, code: 'fr', name: 'French (fr)', isDefault: false },
    ]);
  });

  it('take entries and localizations, read back with locale=all', async () => {
    const en = await request(service.app)
      .post('/api/terms')
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { text: 'Asset' } })
      .expect(200);
    const de = await request(service.app)
      .post(`/api/terms/${en.body.data.id}/localizations`)
      .set('Authorization', `Bearer ${token}`)
      .send({ text: 'Vermögen', locale: 'de' });
    expect(de.status, JSON.stringify(de.body)).to.equal(200);
    const all = await get('/api/terms?locale=all&sort=id&fields[0]=text&fields[1]=locale').expect(200);
    expect(all.body.data.map((d: { attributes: unknown }) => d.attributes)).to.deep.equal([
      { text: 'Asset', locale: 'en' },
      { text: 'Vermögen', locale: 'de' },
    ]);
    const fr = await get('/api/terms?locale=fr').expect(200);
    expect(fr.body.data).to.deep.equal([]);
  });

  it('refuses a code already there and a malformed one, adding nothing', async () => {
    expect((globalThis as { strapi?: { localesRefused?: string[] } }).strapi?.localesRefused).to.deep.equal([
      'ApplicationError: This locale already exists',
      'ValidationError: A locale needs a code such as "en" or "fr-CA"',
    ]);
    const res = await get('/api/i18n/locales').expect(200);
    expect(res.body).to.have.length(3);
    const bad = await request(service.app)
      .post('/api/terms')
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { text: 'x', locale: 'it' } });
    expect(bad.status).to.equal(400);
  });
});
