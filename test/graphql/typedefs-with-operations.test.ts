// typeDefs a project gives the extension service with an operation or a fragment among its types
// (a sample `mutation { ... }` left in the SDL, next to `schema { query: Query }`): Strapi's schema
// merge (graphql-tools' mergeTypeDefs) leaves what is no type definition out, so the project starts
// and its types and resolvers work; here too (was: start-up stopped on "OperationDefinition").
import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeTempProject } from '../helpers/temp-app.js';
import { gql } from './helpers.js';

const TYPE_DEFS = `
  type Greeting { text: String }
  type Query { greeting: Greeting }
  schema { query: Query }
  mutation {
    createNote(data: { text: "sample" }) { data { id } }
  }
  fragment NoteParts on Note { text }
`;

describe('GraphQL typeDefs with an operation or a fragment among the types', () => {
  let service: TestService;
  before(async () => {
    const appDir = await writeTempProject({
      ...NOTE_HELLO_API,
      'config/plugins.js': 'module.exports = { graphql: { enabled: true } };',
      'src/index.js': `module.exports = {
  register({ strapi }) {
    strapi.plugin('graphql').service('extension').use({
      typeDefs: ${JSON.stringify(TYPE_DEFS)},
      resolvers: { Query: { greeting: () => ({ text: 'hello' }) } },
      resolversConfig: { 'Query.greeting': { auth: false } },
    });
  },
};
`,
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it('starts, and serves the types and resolvers the SDL defines', async () => {
    expect((await gql(service, '{ greeting { text } }')).body).to.deep.equal({ data: { greeting: { text: 'hello' } } });
  });

  it('makes no type of the fragment', async () => {
    const fragment = await gql(service, '{ __type(name: "NoteParts") { name } }');
    expect(fragment.body).to.deep.equal({ data: { __type: null } });
  });
});
