// Regression: `createUsersPermissionsRole` twice with one name answered INTERNAL_SERVER_ERROR (the
// role types' unique index refused the second) and took any name; it now makes the checks of the
// REST route (`POST /api/users-permissions/roles`), as Strapi's resolver runs its controller.
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { gql } from '../graphql/helpers.js';
import { createTestService, type TestService } from '../helpers/server.js';

describe('regression: GraphQL createUsersPermissionsRole checks as the REST route', () => {
  let service: TestService;
  let token: string;
  before(async () => {
    service = await createTestService();
    token = (await createApiToken(service.context, { name: 'roles', type: 'full-access' })).accessKey;
  });
  after(() => service.close());

  const create = (data: string) =>
    gql(service, `mutation { createUsersPermissionsRole(data: ${data}) { ok } }`, undefined, token);
  const roleNames = async () =>
    (await service.context.connection.db?.collection('up_roles').find({}).toArray())?.map((role) =>
      String(role['name']),
    );

  it('creates a role once; the same name again, a short name or no data are 4xx errors that store nothing', async () => {
    expect((await create('{ name: "Editors", description: "Edit" }')).body).to.deep.equal({
      data: { createUsersPermissionsRole: { ok: true } },
    });
    const again = await create('{ name: "editors" }');
    expect(again.body.data).to.deep.equal({ createUsersPermissionsRole: null });
    expect(again.body.errors?.[0]?.message).to.equal('This role already exists');
    expect(JSON.stringify(again.body.errors?.[0]?.extensions)).to.include('"name":"ApplicationError"');
    const short = await create('{ name: "x" }');
    expect(short.body.errors?.[0]?.message).to.equal('name must be at least 3 characters');
    expect(short.body.errors?.[0]?.extensions?.code).to.not.equal('INTERNAL_SERVER_ERROR');
    const empty = await create('{}');
    expect(empty.body.errors?.[0]?.message).to.equal('Request body cannot be empty');
    expect((await roleNames())?.filter((name) => /editors|^x$/i.test(String(name)))).to.deep.equal(['Editors']);
    const listed = await request(service.app)
      .get('/api/users-permissions/roles')
      .set('Authorization', `Bearer ${token}`);
    expect(listed.body.roles.find((role: { type: string }) => role.type === 'editors')).to.include({
      name: 'Editors',
      description: 'Edit',
    });
  });
});
