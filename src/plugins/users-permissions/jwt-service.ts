import jsonwebtoken from 'jsonwebtoken';
import { UnauthorizedError } from '../../errors/index.js';

/**
 * `strapi.plugin('users-permissions').service('jwt')` of Strapi v4, for an app's own auth code:
 * `issue(payload, options)` signs with the plugin's secret (HS256, `jwt.expiresIn` unless the
 * options say otherwise); `verify(token)` resolves to the payload or rejects with `Invalid token.`.
 */
export function createJwtService(secret: string, expiresIn: string | number) {
  return {
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
  };
}
