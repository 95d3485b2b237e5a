import type { Request } from 'express';
import jsonwebtoken from 'jsonwebtoken';
import { ExtractJwt, Strategy as JwtStrategy, type StrategyOptionsWithoutRequest } from 'passport-jwt';

export interface JwtPayload {
  id: number;
}

const ALGORITHM = 'HS256';

/** Issues a user's JWT (`{ id }`, as Strapi v4). */
export function issueJwt(secret: string, userId: number, expiresIn: string | number): string {
  return jsonwebtoken.sign({ id: userId }, secret, {
    algorithm: ALGORITHM,
    expiresIn: expiresIn as jsonwebtoken.SignOptions['expiresIn'],
  });
}

export type JwtResult = { ok: true; payload: JwtPayload } | { ok: false };

/**
 * Verifies `Authorization: Bearer <jwt>` with passport-jwt: HS256 only (so `alg: none` and other
 * algorithms are refused), this secret only, not expired, and a payload with an integer `id`.
 */
export class JwtVerifier {
  private readonly strategy: JwtStrategy;

  constructor(secret: string) {
    const options: StrategyOptionsWithoutRequest = {
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: secret,
      algorithms: [ALGORITHM],
    };
    this.strategy = new JwtStrategy(options, (payload: unknown, done: (err: unknown, user?: unknown) => void) => {
      const id = (payload as { id?: unknown } | null)?.id;
      if (typeof id === 'number' && Number.isInteger(id)) done(null, { id });
      else done(null, false);
    });
  }

  /** Runs the strategy once for this request (the passport Strategy protocol: success/fail/error). */
  verify(req: Request): Promise<JwtResult> {
    return new Promise((resolve) => {
      const run = Object.create(this.strategy) as JwtStrategy & {
        success(user: JwtPayload): void;
        fail(): void;
        error(err: unknown): void;
      };
      run.success = (user) => resolve({ ok: true, payload: user });
      run.fail = () => resolve({ ok: false });
      run.error = () => resolve({ ok: false });
      run.authenticate(req, {});
    });
  }
}
