import bcrypt from 'bcryptjs';

const ROUNDS = 10;
/** A hash of nothing anyone knows: compared against when a login names no user, so both paths cost the same. */
const DUMMY_HASH = bcrypt.hashSync('content-service: no such user', ROUNDS);

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, ROUNDS);
}

/** bcrypt's comparison is constant-time; a missing hash still costs one comparison. */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  const ok = await bcrypt.compare(password, typeof hash === 'string' && hash !== '' ? hash : DUMMY_HASH);
  return ok && typeof hash === 'string' && hash !== '';
}
