import jsonwebtoken from 'jsonwebtoken';
import { UnauthorizedError } from '../../errors/index.js';

/**
 * `strapi.plugin('users-permissions').service('jwt')` of Strapi v4, for an app's own auth code:
 * `issue(payload, options)` signs with the plugin's secret (HS256, `jwt.expiresIn` unless the
 * options say otherwise); `verify(token)` resolves to the payload or rejects with `Invalid token.`;
 * `getToken(ctx)` verifies the request's `Authorization: Bearer` token (null without one).
 */
export function createJwtService(secret: string, expiresIn: string | number) {
  const service = {
    issue(payload: object, options: jsonwebtoken.SignOptions = {}): string {
      return jsonwebtoken.sign({ ...payload }, secret, {
        algorithm: 'HS256',
        expiresIn: expiresIn as jsonwebtoken.SignOptions['expiresIn'],
        ...options,
      });
    },
    verify(token: string): Promise<jsonwebtoken.JwtPayload> {
      return new Promise((resolve, reject) => {
        jsonwebtoken.verify(token, secret, { algorithms: ['HS256'] }, (err, payload) => {
          if (err || !payload || typeof payload === 'string') reject(new UnauthorizedError('Invalid token.'));
          else resolve(payload);
        });
      });
    },
    getToken(ctx: { request?: { header?: Record<string, unknown> } }): Promise<jsonwebtoken.JwtPayload> | null {
      const authorization = ctx.request?.header?.authorization;
      if (typeof authorization !== 'string') return null;
      const parts = authorization.split(/\s+/);
      if (parts[0]?.toLowerCase() !== 'bearer' || parts.length !== 2 || !parts[1]) return null;
      return service.verify(parts[1]);
    },
  };
  return service;
}
