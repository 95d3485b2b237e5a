// A custom API token's permissions are several documents (`strapi_api_token_permissions`),
// replaced by deleting those not wanted and adding those missing: two replacements interleaved,
// from two instances, must leave the set of one of them, never their union (a token allowed more
// than any request asked for); a revocation racing them leaves nothing of the token.
import { expect } from 'chai';
import { setTokenActions } from '../../src/plugins/users-permissions/api-token-permissions.js';
import { createApiToken, revokeApiToken } from '../../src/plugins/users-permissions/index.js';
import { range, startCluster, type Cluster } from './helpers.js';

describe("a custom API token's permissions replaced in parallel (2 service instances)", function () {
  this.timeout(60_000);
  let cluster: Cluster;
  before(async () => {
    cluster = await startCluster(2);
  });
  after(() => cluster.close());

  const actionsOf = async (tokenId: number): Promise<string> =>
    (await cluster.docs('strapi_api_token_permissions', { token: tokenId }))
      .map((p) => String(p.action))
      .sort()
      .join(',');

  it('leave the set of one of them', async () => {
    const sets = [
      ['api::article.article.find', 'api::article.article.findOne'],
      ['api::article.article.create', 'api::article.article.update'],
      ['api::article.article.delete'],
      ['api::article.article.find', 'api::article.article.delete'],
    ];
    const asked = sets.map((set) => [...set].sort().join(','));
    const { id } = await createApiToken(cluster.services[0]!.context, {
      name: 'replaced in parallel',
      type: 'custom',
      actions: sets[0]!,
    });
    for (let round = 0; round < 4; round++) {
      await Promise.all(
        range(0, 5).map((i) => setTokenActions(cluster.services[i % 2]!.context, id, sets[(i + round) % sets.length]!)),
      );
      expect(asked, `round ${round}`).to.include(await actionsOf(id));
    }
  });

  it('a revocation racing replacements leaves no permission of the token behind', async () => {
    for (let round = 0; round < 4; round++) {
      const { id } = await createApiToken(cluster.services[0]!.context, {
        name: `revoked in parallel ${round}`,
        type: 'custom',
        actions: ['api::article.article.find'],
      });
      const settled = await Promise.allSettled([
        ...range(0, 3).map((i) =>
          setTokenActions(cluster.services[i % 2]!.context, id, ['api::tag.tag.find', `api::tag.tag.findOne`]),
        ),
        revokeApiToken(cluster.services[round % 2]!.context, id),
      ]);
      // a replacement after the revocation found no token (404); none failed otherwise
      for (const outcome of settled)
        if (outcome.status === 'rejected') expect(String(outcome.reason)).to.match(/Token not found/);
      expect(await cluster.docs('strapi_api_tokens', { _id: id }), `round ${round}`).to.deep.equal([]);
      expect(await actionsOf(id), `round ${round}`).to.equal('');
    }
  });
});
