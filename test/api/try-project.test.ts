// `npm run try-project`'s passes on a small project: the full-access token's, then a user's who
// signs up through /api/auth/local/register, so a controller reading ctx.state.user fails only in
// the first; the user's role holds what the project exported with config-sync, and requests for
// actions it does not grant are not sent.
import { expect } from 'chai';
import { tryProject } from '../../scripts/try-project/run.js';
import { writeTempProject } from '../helpers/temp-app.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const collection = (singular: string, plural: string) =>
  json({
    kind: 'collectionType',
    collectionName: plural,
    info: { singularName: singular, pluralName: plural, displayName: singular },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string' } },
  });

const OWN_NOTES = {
  'src/api/note/content-types/note/schema.json': collection('note', 'notes'),
  // the user's own notes only: ctx.state.user is there for a JWT, not for an API token
  'src/api/note/controllers/note.js': `
const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::note.note', () => ({
  async find(ctx) {
    ctx.query = { ...ctx.query, filters: { title: { $ne: 'hidden-from-' + ctx.state.user.id } } };
    return super.find(ctx);
  },
}));
`,
  'src/api/tag/content-types/tag/schema.json': collection('tag', 'tags'),
  'config/plugins.js': 'module.exports = { graphql: { enabled: false } };',
};

describe('npm run try-project', () => {
  it('reports the token pass and the user pass apart; the user pass runs ctx.state.user code', async () => {
    const report = await tryProject(await writeTempProject(OWN_NOTES), ['token', 'user']);
    expect(report.startError).to.equal(undefined);
    const [token, user] = report.passes;
    expect(token?.name).to.equal('token');
    expect(token?.failed).to.have.length(1);
    expect(token?.failed[0]).to.match(/^GET \/api\/notes\?populate=\*&publicationState=preview 500/);
    expect(report.logs.some((line) => line.startsWith('[token] '))).to.equal(true);
    // register, /users/me, and per type: create, list, read back, update
    expect(user).to.deep.include({ name: 'user', failed: [], passed: 10, notGranted: 0 });
    expect(report.notices).to.include(
      "[user] the authenticated role has no permission on 2 api content-type(s) in the project: granted find, findOne, create, update, delete on them (the admin panel's ticks)",
    );
  });

  it("grants the user's role what config/sync exported, and does not send what it does not grant", async () => {
    const project = await writeTempProject({
      ...OWN_NOTES,
      'config/sync/user-role.authenticated.json': json({
        type: 'authenticated',
        permissions: [
          { action: 'api::note.note.find' },
          { action: 'api::note.note.create' },
          { action: 'plugin::users-permissions.user.me' },
        ],
      }),
    });
    const report = await tryProject(project, ['user']);
    expect(report.notices).to.include(
      "[user] the authenticated role's permissions of config/sync/user-role.authenticated.json are granted",
    );
    // note: create and list (findOne and update not granted); tag: nothing granted
    expect(report.passes).to.deep.equal([{ name: 'user', passed: 4, failed: [], notGranted: 4 }]);
  });

  it('signs the user in through /api/auth/local when the project closes registration', async () => {
    const project = await writeTempProject({
      ...OWN_NOTES,
      'src/index.js': `
module.exports = {
  async bootstrap({ strapi }) {
    const store = strapi.store({ type: 'plugin', name: 'users-permissions' });
    await store.set({ key: 'advanced', value: { ...(await store.get({ key: 'advanced' })), allow_register: false } });
  },
};
`,
    });
    const report = await tryProject(project, ['user']);
    expect(report.notices).to.include(
      '[user] register answered 400 Register action is currently disabled: the user is created directly and signs in',
    );
    expect(report.passes[0]).to.deep.include({ failed: [], passed: 10 });
  });

  it('reports a project that does not start', async () => {
    const report = await tryProject(await writeTempProject({ 'src/api/x/content-types/x/schema.json': '{' }), [
      'token',
      'user',
    ]);
    expect(report.startError).to.be.a('string');
    expect(report.passes).to.deep.equal([]);
  });

  it('writes unique date, datetime, time and short string values in each pass, so both passes create their entries', async () => {
    const report = await tryProject(
      await writeTempProject({
        'src/api/slot/content-types/slot/schema.json': json({
          kind: 'collectionType',
          collectionName: 'slots',
          info: { singularName: 'slot', pluralName: 'slots', displayName: 'slot' },
          options: { draftAndPublish: false },
          attributes: {
            day: { type: 'date', unique: true },
            startsAt: { type: 'datetime', unique: true },
            opensAt: { type: 'time', unique: true },
            code: { type: 'string', unique: true, minLength: 2, maxLength: 3 },
          },
        }),
        'config/plugins.js': 'module.exports = { graphql: { enabled: false } };',
      }),
      ['token', 'user'],
    );
    expect(report.startError).to.equal(undefined);
    expect(report.passes.map((pass) => pass.failed)).to.deep.equal([[], []]);
  });
});
