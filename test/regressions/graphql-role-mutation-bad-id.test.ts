// Regression: `updateUsersPermissionsRole(id: "$where")` (and deleteUsersPermissionsRole) answered
// INTERNAL_SERVER_ERROR: the id went to the database as NaN. GraphQL now names roles as the REST
// routes do: an id that is not a role is `Role not found`, and the public and authenticated roles
// cannot be deleted.
import { expect } from 'chai';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { gql } from '../graphql/helpers.js';
import { createTestService, type TestService } from '../helpers/server.js';

describe('regression: GraphQL role mutations with an id that names no role', () => {
  let service: TestService;
  let token: string;
  before(async () => {
    service = await createTestService();
    token = (await createApiToken(service.context, { name: 'roles', type: 'full-access' })).accessKey;
  });
  after(() => service.close());

  const notFound = {
    message: 'Role not found',
    extensions: {
      error: { name: 'NotFoundError', message: 'Role not found', details: {} },
      code: 'STRAPI_NOT_FOUND_ERROR',
    },
  };

  it('answers Role not found for ids that are not a role, and changes nothing', async () => {
    for (const id of ['$where', 'abc', '0', '-1', '1.5', '9999']) {
      const update = await gql(
        service,
        `mutation { updateUsersPermissionsRole(id: "${id}", data: { name: "Hacked" }) { ok } }`,
        undefined,
        token,
      );
      expect(update.body, `update ${id}`).to.deep.equal({
        errors: [notFound],
        data: { updateUsersPermissionsRole: null },
      });
      const remove = await gql(
        service,
        `mutation { deleteUsersPermissionsRole(id: "${id}") { ok } }`,
        undefined,
        token,
      );
      expect(remove.body, `delete ${id}`).to.deep.equal({
        errors: [notFound],
        data: { deleteUsersPermissionsRole: null },
      });
    }
    const roles = await service.context.connection.db?.collection('up_roles').find({}).toArray();
    expect(roles?.map((role) => role.name)).to.not.include('Hacked');
  });

  it('updates a role it finds, and refuses to delete the authenticated role', async () => {
    const authenticated = await service.context.connection.db
      ?.collection('up_roles')
      .findOne({ type: 'authenticated' });
    const id = String(authenticated?._id);
    const update = await gql(
      service,
      `mutation { updateUsersPermissionsRole(id: "${id}", data: { description: "Signed-in users" }) { ok } }`,
      undefined,
      token,
    );
    expect(update.body).to.deep.equal({ data: { updateUsersPermissionsRole: { ok: true } } });
    const remove = await gql(service, `mutation { deleteUsersPermissionsRole(id: "${id}") { ok } }`, undefined, token);
    expect(remove.body.errors?.[0]?.message).to.equal('Cannot delete the authenticated role');
  });
});
