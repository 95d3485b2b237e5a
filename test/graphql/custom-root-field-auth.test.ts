// Root fields an app's extension adds are authorized as Strapi 4.26's GraphQL plugin does: unless
// resolversConfig says `auth: false`, its auth service verifies the caller as for a route with no
// scope: a signed-in user or a full-access token passes, the public (and a read-only token) is
// refused with FORBIDDEN before the resolver runs. A resolver reading `context.state.user.id`
// (graphlinks' "my links") therefore never runs without a user.
import { expect } from 'chai';
import type { ExtensionService } from '../../src/plugins/graphql/index.js';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { gql, registerUser } from './helpers.js';

describe('GraphQL root fields added by an extension: who may call them', () => {
  let service: TestService;
  let jwt: string;
  const runs: string[] = [];
  before(async () => {
    service = await createTestService({
      register({ app }) {
        const extension = app.plugin('graphql').service('extension') as ExtensionService;
        extension.use({
          typeDefs: 'type Query { myName: String  plain: String  ping: String } type Mutation { touch: Boolean }',
          resolvers: {
            Query: {
              myName: (_p, _a, context) => {
                runs.push('myName');
                return (context as { state: { user: { username: string } } }).state.user.username;
              },
              plain: () => {
                runs.push('plain');
                return 'ran';
              },
              ping: () => 'pong',
            },
            Mutation: {
              touch: () => {
                runs.push('touch');
                return true;
              },
            },
          },
          resolversConfig: {
            'Query.myName': { auth: true },
            'Query.ping': { auth: false },
          },
        });
      },
    });
    jwt = await registerUser(service, 'rootfields');
  });
  after(() => service.close());

  const code = (body: { errors?: Array<{ extensions?: { code?: string } }> }) => body.errors?.[0]?.extensions?.code;

  it('refuses the public with FORBIDDEN and runs nothing, unless auth is false', async () => {
    runs.length = 0;
    for (const query of ['{ myName }', '{ plain }', 'mutation { touch }']) {
      const res = await gql(service, query);
      expect(code(res.body), query).to.equal('FORBIDDEN');
    }
    expect(runs).to.deep.equal([]);
    expect((await gql(service, '{ ping }')).body).to.deep.equal({ data: { ping: 'pong' } });
  });

  it('lets a signed-in user and a full-access token call them; a read-only token is refused', async () => {
    expect((await gql(service, '{ myName plain }', undefined, jwt)).body).to.deep.equal({
      data: { myName: 'rootfields', plain: 'ran' },
    });
    const full = (await createApiToken(service.context, { name: 'full', type: 'full-access' })).accessKey;
    expect((await gql(service, 'mutation { touch }', undefined, full)).body).to.deep.equal({ data: { touch: true } });
    const readOnly = (await createApiToken(service.context, { name: 'read', type: 'read-only' })).accessKey;
    expect(code((await gql(service, '{ plain }', undefined, readOnly)).body)).to.equal('FORBIDDEN');
  });
});
