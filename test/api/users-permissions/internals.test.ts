import { expect } from 'chai';
import type { Request, Response } from 'express';
import { abilityFromActions, apiTokenAbility } from '../../../src/access/abilities.js';
import { bearerToken } from '../../../src/plugins/users-permissions/authenticator.js';
import { hashAccessKey } from '../../../src/plugins/users-permissions/api-tokens.js';
import { issueJwt, JwtVerifier } from '../../../src/plugins/users-permissions/jwt.js';
import { fromPermissionInput } from '../../../src/plugins/users-permissions/permissions-format.js';
import { rateLimit } from '../../../src/plugins/users-permissions/rate-limit.js';

const withAuth = (authorization?: string) =>
  ({ headers: authorization === undefined ? {} : { authorization } }) as unknown as Request;

describe('users-permissions internals', () => {
  it('reads only `Bearer <token>` as a credential', () => {
    expect(bearerToken(withAuth('Bearer abc'))).to.equal('abc');
    expect(bearerToken(withAuth('bearer abc'))).to.equal('abc');
    expect(bearerToken(withAuth('Token abc'))).to.equal(undefined);
    expect(bearerToken(withAuth('Bearer'))).to.equal(undefined);
    expect(bearerToken(withAuth('Bearer a b'))).to.equal(undefined);
    expect(bearerToken(withAuth())).to.equal(undefined);
  });

  it('verifies JWTs with HS256 and the right secret only', async () => {
    const verifier = new JwtVerifier('s1');
    expect(await verifier.verify(withAuth(`Bearer ${issueJwt('s1', 7, '1h')}`))).to.deep.equal({
      ok: true,
      payload: { id: 7 },
    });
    expect(await verifier.verify(withAuth(`Bearer ${issueJwt('s2', 7, '1h')}`))).to.deep.equal({ ok: false });
    expect(await verifier.verify(withAuth(`Bearer ${issueJwt('s1', 7, -10)}`))).to.deep.equal({ ok: false });
  });

  it('abilities: role actions, read-only, full-access, custom', () => {
    expect(abilityFromActions(['a.b.find']).can('a.b.find')).to.equal(true);
    expect(abilityFromActions(['a.b.find']).can('a.b.create')).to.equal(false);
    const readOnly = apiTokenAbility('read-only', []);
    expect(readOnly.can('api::note.note.findOne')).to.equal(true);
    expect(readOnly.can('api::note.note.create')).to.equal(false);
    expect(apiTokenAbility('full-access', []).can('anything')).to.equal(true);
    expect(apiTokenAbility('custom', ['api::note.note.create']).can('api::note.note.find')).to.equal(false);
  });

  it('permission trees are read as their enabled actions', () => {
    const tree = {
      'api::article': { controllers: { article: { find: { enabled: true }, create: { enabled: false } } } },
      'plugin::users-permissions': { controllers: { user: { me: { enabled: true, policy: '' } } } },
    };
    expect(fromPermissionInput(tree).sort()).to.deep.equal([
      'api::article.article.find',
      'plugin::users-permissions.user.me',
    ]);
    expect(() => fromPermissionInput('x')).to.throw();
    expect(() =>
      fromPermissionInput({ 'api::a': { controllers: { a: { 'bad action!': { enabled: true } } } } }),
    ).to.throw();
  });

  it('hashes access keys with the salt', () => {
    expect(hashAccessKey('key', 'salt')).to.match(/^[0-9a-f]{128}$/);
    expect(hashAccessKey('key', 'salt')).to.not.equal(hashAccessKey('key', 'pepper'));
  });

  it('rate limits by route and address, not by body', () => {
    const limiter = rateLimit({ max: 2, intervalMs: 60_000 });
    const results: unknown[] = [];
    const req = (ip: string, email: string) =>
      ({
        ip,
        baseUrl: '/api',
        path: '/auth/local',
        route: { path: '/auth/local' },
        body: { email },
        socket: {},
      }) as unknown as Request;
    for (let i = 0; i < 3; i++)
      limiter(req('1.1.1.1', `r${i}@x.org`), {} as Response, (err?: unknown) => {
        results.push(err);
      });
    limiter(req('2.2.2.2', 'a@x.org'), {} as Response, (err?: unknown) => {
      results.push(err);
    });
    expect(results[0]).to.equal(undefined);
    expect(results[1]).to.equal(undefined);
    expect((results[2] as { status?: number }).status).to.equal(429);
    expect(results[3]).to.equal(undefined);
  });
});
