import bcrypt from 'bcryptjs';
import type { PendingPassword } from './build.js';

/** bcrypt (10 rounds, as Strapi) of every password of a valid write, without blocking the event loop. */
export async function hashPasswords(passwords: PendingPassword[]): Promise<void> {
  await Promise.all(
    passwords.map(async ({ target, attribute }) => {
      const plain = target[attribute];
      if (typeof plain === 'string') target[attribute] = await bcrypt.hash(plain, 10);
    }),
  );
}
