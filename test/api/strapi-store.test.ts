// strapi.store and the users-permissions advanced settings a project's bootstrap changes there
// (Strapi's templates close registration or pick the default role this way): register honours them.
import { expect } from 'chai';
import request from 'supertest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStrapiStore } from '../../src/lifecycle/core-store.js';
import { createTestService, type TestService } from '../helpers/server.js';

const BOOTSTRAP = `module.exports = {
  async bootstrap({ strapi }) {
    const store = strapi.store({ type: 'plugin', name: 'users-permissions' });
    const advanced = await store.get({ key: 'advanced' });
    await store.set({ key: 'advanced', value: { ...advanced, allow_register: process.env.ALLOW_REGISTER === 'yes' } });
  },
};
`;

describe('strapi.store and the users-permissions advanced settings', () => {
  let dir = '';
  let service: TestService;
  const api = () => request(service.app);
  const settings = () =>
    service.context.connection.collection<{ key: string; value: Record<string, unknown> }>(
      'strapi_core_store_settings',
    );

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cs-store-'));
    const schemaDir = join(dir, 'src', 'api', 'note', 'content-types', 'note');
    mkdirSync(schemaDir, { recursive: true });
    const info = { singularName: 'note', pluralName: 'notes', displayName: 'Note' };
    writeFileSync(join(schemaDir, 'schema.json'), JSON.stringify({ kind: 'collectionType', info, attributes: {} }));
    writeFileSync(join(dir, 'src', 'index.js'), BOOTSTRAP);
    service = await createTestService({ appDir: dir });
  });
  after(async () => {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers Strapi's defaults for the advanced settings until the app writes them, then what it wrote", async () => {
    const stored = await settings().findOne({ key: 'plugin_users-permissions_advanced' });
    expect(stored?.value).to.deep.equal({
      unique_email: true,
      allow_register: false,
      email_confirmation: false,
      email_reset_password: null,
      email_confirmation_redirection: null,
      default_role: 'authenticated',
    });
  });

  it('refuses registration when the app turned allow_register off, as Strapi', async () => {
    const res = await api()
      .post('/api/auth/local/register')
      .send({ username: 'ada', email: 'ada@example.com', password: 'Password123!' })
      .expect(400);
    expect(res.body.error).to.include({ name: 'ApplicationError', message: 'Register action is currently disabled' });
  });

  it('registers with the role default_role names once allowed', async () => {
    await settings().updateOne(
      { key: 'plugin_users-permissions_advanced' },
      { $set: { 'value.allow_register': true, 'value.default_role': 'public' } },
    );
    const res = await api()
      .post('/api/auth/local/register')
      .send({ username: 'bob', email: 'bob@example.com', password: 'Password123!' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const user = await service.context.connection.collection('up_users').findOne({ username: 'bob' });
    const role = await service.context.connection.collection('up_roles').findOne({ _id: user?.role });
    expect(res.body.user.username).to.equal('bob');
    expect(role?.type).to.equal('public');
  });
});

describe('strapi.store under parallel writes', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
  });
  after(() => service.close());

  it('keeps one document per setting: a unique index, and parallel first writes of one key land on it', async () => {
    const store = createStrapiStore(service.context.connection)({ type: 'plugin', name: 'race' });
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set({ key: 'settings', value: { round: i } })));
    const settings = service.context.connection.collection('strapi_core_store_settings');
    expect(await settings.countDocuments({ key: 'plugin_race_settings' })).to.equal(1);
    const indexes = await settings.listIndexes().toArray();
    expect(indexes.find((index) => index.name === 'key_environment_tag_unique')).to.deep.include({
      key: { key: 1, environment: 1, tag: 1 },
      unique: true,
    });
    expect(((await store.get({ key: 'settings' })) as { round: number }).round).to.be.within(0, 19);
  });
});
