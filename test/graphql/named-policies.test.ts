import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';
import { at, gql, registerUser } from './helpers.js';

/**
 * Policies a project names in its GraphQL resolversConfig, as Strapi 4.26 resolves them: a global
 * one (`global::<file>` in src/policies), an api's (`api::<api>.<file>`), with `{ name, config }`
 * handing the policy its config; a name nothing answers refuses the field.
 */
const PROJECT = {
  'package.json': JSON.stringify({ name: 'named-gql-policies', dependencies: { '@strapi/plugin-graphql': '4.26.2' } }),
  'config/permissions.json': JSON.stringify({
    public: ['api::note.note.find', 'api::note.note.findOne', 'api::note.note.update'],
    authenticated: ['api::note.note.find', 'api::note.note.findOne', 'api::note.note.update'],
  }),
  'src/api/note/content-types/note/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string' }, owner: { type: 'string' } },
  }),
  'src/policies/is-signed-in.js': `module.exports = (policyContext) => Boolean(policyContext.state.user);`,
  'src/api/note/policies/owner-only.js': `
module.exports = async (policyContext, config, { strapi }) => {
  const note = await strapi.db.query('api::note.note').findOne({ where: { id: policyContext.args.id } });
  return note !== null && note.owner === policyContext.state.user.username && config.mode === 'strict';
};`,
  'src/index.js': `module.exports = {
  register({ strapi }) {
    strapi.plugin('graphql').service('extension').use({
      resolversConfig: {
        'Query.notes': { policies: ['global::is-signed-in'] },
        'Mutation.updateNote': { policies: ['global::is-signed-in', { name: 'api::note.owner-only', config: { mode: 'strict' } }] },
        'Query.note': { policies: ['global::no-such-policy'] },
      },
    });
  },
  async bootstrap({ strapi }) {
    await strapi.entityService.create('api::note.note', { data: { title: 'mine', owner: 'ann' } });
  },
};`,
};

describe('GraphQL resolversConfig policies named as Strapi names them', () => {
  let service: TestService;
  let ann: string;
  let bob: string;
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(PROJECT) });
    ann = await registerUser(service, 'ann');
    bob = await registerUser(service, 'bob');
  });
  after(() => service.close());

  it('runs a global policy by name: the public caller is refused, a user passes', async () => {
    const anonymous = await gql(service, '{ notes { data { id } } }');
    expect(anonymous.body.errors?.[0]?.message).to.equal('Policy Failed');
    const signedIn = await gql(service, '{ notes { data { attributes { title } } } }', undefined, ann);
    expect(signedIn.body.errors).to.equal(undefined);
    expect(at(signedIn.body, 'data.notes.data')).to.deep.equal([{ attributes: { title: 'mine' } }]);
  });

  it("runs an api's policy by { name, config }: only the owner updates, and the refusal changes nothing", async () => {
    const update = 'mutation($t: String!) { updateNote(id: 1, data: { title: $t }) { data { attributes { title } } } }';
    const refused = await gql(service, update, { t: 'taken' }, bob);
    expect(refused.body.errors?.[0]?.message).to.equal('Policy Failed');
    const notes = service.context.connection.collection<{ _id: number; title?: string }>('notes');
    expect((await notes.findOne({ _id: 1 }))?.title).to.equal('mine');
    const allowed = await gql(service, update, { t: 'renamed' }, ann);
    expect(allowed.body.errors).to.equal(undefined);
    expect(at(allowed.body, 'data.updateNote.data.attributes.title')).to.equal('renamed');
    expect((await notes.findOne({ _id: 1 }))?.title).to.equal('renamed');
  });

  it('refuses a field whose policy names nothing', async () => {
    const res = await gql(service, '{ note(id: 1) { data { id } } }', undefined, ann);
    expect(res.body.errors?.[0]?.message).to.equal('Policy Failed');
    expect(at(res.body, 'data.note')).to.equal(null);
  });
});
