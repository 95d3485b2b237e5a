import { pino, type Logger } from 'pino';
import { build as prettyStream } from 'pino-pretty';

export type { Logger };

/** Where the log goes: standard output, or (tests) any stream that says whether it is a terminal. */
type LogDestination = NodeJS.WritableStream & { isTTY?: boolean };

/**
 * The service's logger. JSON lines, for log collectors, except in development on a terminal,
 * where a person reads them: one coloured line per event (pino-pretty, in this thread, synchronous).
 */
export function createLogger(env: string, destination: LogDestination = process.stdout): Logger {
  const level = process.env.LOG_LEVEL ?? (env === 'test' ? 'silent' : 'info');
  const options = { level, base: undefined, redact: ['req.headers.authorization', 'req.headers.cookie'] };
  if (env !== 'development' || destination.isTTY !== true)
    return destination === process.stdout ? pino(options) : pino(options, destination);
  return pino(
    options,
    prettyStream({ destination, sync: true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss' }),
  );
}
