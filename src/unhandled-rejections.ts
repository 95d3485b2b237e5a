import type { Logger } from 'pino';

const MESSAGE =
  'a promise rejected that nothing awaited (app or plugin code calling without await); the service goes on';

/**
 * Keeps the service serving when a promise rejects and nothing awaits it. In a Strapi project that
 * is the app's or a plugin's code starting a call without `await` (an email sent after a sign-up
 * while the mail server is down, a translation job writing after the service stopped): Node ends
 * the process on it, and with it every request in flight. Here the rejection is logged as an error
 * and the service goes on; what a client was answered stays as it was. `logger` answers the
 * service's logger once there is one (a bootstrap's rejection may come before): until then the
 * line goes to standard error.
 */
export function logUnhandledRejections(logger: () => Logger | undefined): () => void {
  const log = (reason: unknown) => {
    const to = logger();
    if (to) to.error({ err: reason }, MESSAGE);
    else console.error(`${MESSAGE}: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
  };
  process.on('unhandledRejection', log);
  return () => void process.off('unhandledRejection', log);
}
