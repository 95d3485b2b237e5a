// The e-mail plugin with the memory provider of test/fixtures/email-project (given by its path, which
// the plugin resolves as a package name: the path is in lower case): what a service sends, captured.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const MEMORY_PROVIDER = fileURLToPath(new URL('../fixtures/email-project/providers/memory', import.meta.url));

export type SentMail = Record<string, unknown> & { to?: string; subject?: string; text?: string; html?: string };

/** `plugins.email` of a service that sends through the memory provider. */
export const MEMORY_EMAIL_PLUGIN = {
  email: { enabled: true, config: { provider: MEMORY_PROVIDER, providerOptions: { tag: 'memory' }, settings: {} } },
};

/** Every message the memory provider was given (shared by the services of this process; clear it first). */
export function sentMails(): SentMail[] {
  return (createRequire(import.meta.url)(MEMORY_PROVIDER) as { sent: SentMail[] }).sent;
}
