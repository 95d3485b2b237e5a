// Regressions found by test/api/bad-input-properties.test.ts:
// - a number attribute given an object whose own `toString` is not a function (`{ "toString": [] }`)
//   answered 500 (yup's cast throws on it); it is the number type error;
// - `PUT /api/users-permissions/roles/:id` with a new name and a permission tree it refuses
//   answered 400 after renaming the role; the tree is read before anything is written.
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, type TestService } from '../helpers/server.js';

describe('regression: refused writes that answered 500 or changed something', () => {
  let service: TestService;
  let auth: Record<string, string>;
  before(async () => {
    service = await createTestService();
    auth = {
      Authorization: `Bearer ${(await createApiToken(service.context, { name: 'r', type: 'full-access' })).accessKey}`,
    };
  });
  after(() => service.close());

  it('a number or boolean given an object without a usable toString is a type error, not a 500', async () => {
    for (const [attribute, type] of [
      ['score', 'number'],
      ['pinned', 'boolean'],
    ] as const) {
      const res = await request(service.app)
        .post('/api/notes')
        .set(auth)
        .send({ data: { title: 't', [attribute]: { toString: [], valueOf: 1 } } });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error.name).to.equal('ValidationError');
      expect(res.body.error.details.errors[0].path).to.deep.equal([attribute]);
      expect(res.body.error.details.errors[0].message).to.include(`must be a \`${type}\` type`);
    }
    expect(await service.context.models.collection('api::note.note').countDocuments({})).to.equal(0);
  });

  it('a role update whose permission tree is refused leaves the name as it was', async () => {
    const roles = service.context.models.collection('plugin::users-permissions.role');
    const before = await roles.findOne({ type: 'public' });
    for (const permissions of ['', false, { 'api::note': { controllers: 'x' } }, ['not an action']]) {
      const res = await request(service.app)
        .put(`/api/users-permissions/roles/${before!._id}`)
        .set(auth)
        .send({ name: 'Renamed', permissions });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error.details.errors[0].path).to.deep.equal(['permissions']);
    }
    expect(await roles.findOne({ type: 'public' })).to.deep.equal(before);
  });
});
