// Content-types whose GraphQL type name is a root's (`subscription`, `query`, `mutation`): Strapi's
// schema still builds (nexus merges the content-type's type with the root of its name; a
// `Subscription` type becomes the subscription root), so the service's must too, and their CRUD
// answers.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';

const schema = (singularName: string, pluralName: string) =>
  JSON.stringify({
    kind: 'collectionType',
    collectionName: pluralName,
    info: { singularName, pluralName, displayName: singularName },
    options: { draftAndPublish: false },
    attributes: { label: { type: 'string' } },
  });

describe('content-types named subscription, query and mutation in GraphQL', () => {
  let service: TestService;
  let token: string;
  const graphql = async (query: string) => {
    const res = await request(service.app).post('/graphql').set('Authorization', `Bearer ${token}`).send({ query });
    expect(res.body.errors, JSON.stringify(res.body.errors)).to.equal(undefined);
    return res.body.data as Record<string, unknown>;
  };
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-root-named-'));
    await writeFiles(appDir, {
      'config/permissions.json': '{}',
      'src/api/subscription/content-types/subscription/schema.json': schema('subscription', 'subscriptions'),
      'src/api/query/content-types/query/schema.json': schema('query', 'queries'),
      'src/api/mutation/content-types/mutation/schema.json': schema('mutation', 'mutations'),
    });
    service = await createTestService({ appDir });
    token = (await createApiToken(service.context, { name: 'root-names', type: 'full-access' })).accessKey;
  });
  after(() => service.close());

  it('builds the schema, with the subscription type as the subscription root as in Strapi', async () => {
    const data = await graphql('{ __schema { queryType { name } mutationType { name } subscriptionType { name } } }');
    expect(data.__schema).to.deep.equal({
      queryType: { name: 'Query' },
      mutationType: { name: 'Mutation' },
      subscriptionType: { name: 'Subscription' },
    });
  });

  it('creates and lists entries of each', async () => {
    await graphql('mutation { createSubscription(data: { label: "s" }) { data { id } } }');
    await graphql('mutation { createQuery(data: { label: "q" }) { data { id } } }');
    await graphql('mutation { createMutation(data: { label: "m" }) { data { id } } }');
    const data = await graphql(
      '{ subscriptions { data { id attributes { label } } } queries { data { attributes { label } } } mutations { data { attributes { label } } } }',
    );
    expect(data).to.deep.equal({
      subscriptions: { data: [{ id: '1', attributes: { label: 's' } }] },
      queries: { data: [{ attributes: { label: 'q' } }] },
      mutations: { data: [{ attributes: { label: 'm' } }] },
    });
  });
});
