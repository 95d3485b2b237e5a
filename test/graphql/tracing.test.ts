// apolloServer.tracing: Apollo's tracing extension on every executed operation, off by default.
import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeClient } from '../helpers/write-client.js';
import { gql } from './helpers.js';

const QUERY = '{ tags(pagination: { pageSize: 2 }) { data { id attributes { name } } } }';

describe('GraphQL: tracing (apolloServer.tracing)', () => {
  let traced: TestService;
  let plain: TestService;
  before(async () => {
    traced = await createTestService({
      config: { plugins: { graphql: { enabled: true, config: { apolloServer: { tracing: true } } } } },
    });
    plain = await createTestService();
    const writes = await writeClient(traced);
    for (const name of ['alpha', 'beta'])
      expect((await writes.post('/api/tags', { data: { name } })).status).to.equal(200);
  });
  after(async () => {
    await traced.close();
    await plain.close();
  });

  it('answers extensions.tracing in the apollo-tracing format (version 1, nanoseconds)', async () => {
    const res = await gql(traced, QUERY);
    expect(res.status).to.equal(200);
    const body = res.body as { data: unknown; extensions?: { tracing?: Record<string, unknown> } };
    const tracing = body.extensions?.tracing as {
      version: number;
      startTime: string;
      endTime: string;
      duration: number;
      execution: { resolvers: Array<Record<string, unknown>> };
    };
    expect(tracing.version).to.equal(1);
    expect(Date.parse(tracing.startTime)).to.be.at.most(Date.parse(tracing.endTime));
    expect(tracing.duration).to.be.a('number').greaterThan(0);
    const resolvers = tracing.execution.resolvers;
    const root = resolvers.find((r) => r.fieldName === 'tags');
    expect(root).to.include({ parentType: 'Query', returnType: 'TagEntityResponseCollection' });
    expect(root?.path).to.deep.equal(['tags']);
    const names = resolvers.filter((r) => r.fieldName === 'name').map((r) => r.path);
    expect(names).to.deep.equal([
      ['tags', 'data', 0, 'attributes', 'name'],
      ['tags', 'data', 1, 'attributes', 'name'],
    ]);
    for (const r of resolvers) {
      expect(Object.keys(r).sort()).to.deep.equal([
        'duration',
        'fieldName',
        'parentType',
        'path',
        'returnType',
        'startOffset',
      ]);
      expect(r.startOffset).to.be.a('number').at.least(0);
      expect(r.duration).to.be.a('number').at.least(0);
      expect((r.startOffset as number) + (r.duration as number)).to.be.at.most(tracing.duration);
    }
  });

  it('traces introspection too (the playground decides from it that tracing is supported)', async () => {
    const res = await gql(traced, '{ __schema { queryType { name } } }');
    expect((res.body as { extensions?: { tracing?: { version: number } } }).extensions?.tracing?.version).to.equal(1);
  });

  it('is off by default', async () => {
    const res = await gql(plain, QUERY);
    expect(res.status).to.equal(200);
    expect(res.body).to.not.have.property('extensions');
  });
});
