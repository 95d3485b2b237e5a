import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';

export type { Logger };

/** Where the log goes: standard output, or (tests) any stream that says whether it is a terminal. */
type LogDestination = NodeJS.WritableStream & { isTTY?: boolean };

/** Standard output is written once this many bytes of log lines are buffered... */
const STDOUT_BUFFER_BYTES = 4096;
/** ...or this often; warnings and errors at once. */
const STDOUT_FLUSH_MS = 1000;

/**
 * What HTTP clients hang on the errors they throw (axios: `config`, `request`, `response`; got:
 * `options`): the call's headers, credentials included (an e-mail provider's API key in
 * `config.headers.Authorization`), and its body. Left out of logged errors.
 */
const HTTP_CLIENT_ERROR_KEYS = ['config', 'request', 'response', 'options'];

/** pino's error serializer, without the HTTP client's request (see above). */
function serializeError(err: Error): Record<string, unknown> {
  const serialized: Record<string, unknown> = { ...pino.stdSerializers.err(err) };
  for (const key of HTTP_CLIENT_ERROR_KEYS) delete serialized[key];
  return serialized;
}

/**
 * The service's logger. JSON lines, for log collectors, except in development on a terminal,
 * where a person reads them: one coloured line per event (pino-pretty, in this thread, synchronous).
 */
export function createLogger(env: string, destination: LogDestination = process.stdout): Logger {
  const level = process.env.LOG_LEVEL ?? (env === 'test' ? 'silent' : 'info');
  const options = {
    level,
    base: undefined,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    serializers: { err: serializeError },
  };
  if (env !== 'development' || destination.isTTY !== true)
    return destination === process.stdout ? bufferedStdoutLogger(options) : pino(options, destination);
  // loaded only here: a start that logs JSON (production, a pipe) does not pay for it
  const { build: prettyStream } = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  return pino(
    options,
    prettyStream({ destination, sync: true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss' }),
  );
}

/**
 * Standard output, written in batches: one write per line (a request's line) would cost a system
 * call and a thread hand-over per request. One stream for every logger of the process; pino
 * flushes what is left when the process exits.
 */
let stdoutFlush: { stream: pino.DestinationStream; flush(): void } | undefined;

function bufferedStdout(): { stream: pino.DestinationStream; flush(): void } {
  if (stdoutFlush) return stdoutFlush;
  const stream = pino.destination({ dest: 1, sync: false, minLength: STDOUT_BUFFER_BYTES });
  const flush = () => {
    try {
      stream.flush();
    } catch {
      // closed as the process exits (pino wrote the rest)
    }
  };
  setInterval(flush, STDOUT_FLUSH_MS).unref();
  stdoutFlush = { stream, flush };
  return stdoutFlush;
}

/** JSON lines on the buffered standard output; warnings and errors are written at once. */
function bufferedStdoutLogger(options: pino.LoggerOptions): Logger {
  const { stream, flush } = bufferedStdout();
  const warn = pino.levels.values.warn ?? 40;
  return pino(
    {
      ...options,
      hooks: {
        logMethod(args, method, level) {
          method.apply(this, args);
          if (level >= warn) flush();
        },
      },
    },
    stream,
  );
}
