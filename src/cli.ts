import { readFileSync } from 'node:fs';
import { createServer } from './app.js';
import { runTokenCommand, TOKEN_USAGE } from './cli-commands.js';
import { ConfigError } from './config/index.js';
import { SchemaError } from './content-types/index.js';
import { stopEarlyDatabase, type EarlyStart } from './database/early-start.js';
import { isListenFailure, ListenError } from './listen.js';
import type { Logger } from './logger.js';
import { seedDemoContent } from './seed/demo-seed.js';
import { ArgumentError, enterAppDir, parseStartOptions, type StartOptions } from './start-options.js';
import { logUnhandledRejections } from './unhandled-rejections.js';

interface Command {
  summary: string;
  usage(): Promise<string>;
  run(argv: string[], early?: Promise<EarlyStart>): Promise<void>;
}

const START_USAGE = `usage: content-service start [--app DIR] [--port N] [--host H] [--memory | --data DIR] [--repair]
Serves the app's REST and GraphQL API; an empty database gets the app's seed.json.
  --app DIR    the app: a Strapi v4 project or schemas/ + config/ (default: APP_DIR, else the current directory)
  --port N     default: PORT, else server.port, else 1337
  --host H     default: HOST, else server.host, else 0.0.0.0
  --memory     the embedded engine without persistence
  --data DIR   the embedded engine's data directory (default: database.dataDir, else <app>/.data)
  --repair     a damaged data file of the embedded engine is repaired (damaged bytes moved aside
               into the data directory) instead of stopping start-up
environment: PORT, HOST, MONGODB_URI, APP_DIR, NODE_ENV, LOG_LEVEL, JWT_SECRET, API_TOKEN_SALT`;

const COMMANDS: Readonly<Record<string, Command>> = {
  start: {
    summary: "serve the app's REST and GraphQL API",
    usage: async () => START_USAGE,
    run: start,
  },
  engine: {
    summary: 'run the embedded MongoDB-compatible engine alone',
    usage: async () => (await import('./engine/cli.js')).USAGE,
    run: engine,
  },
  token: {
    summary: 'create, list or revoke API tokens',
    usage: async () => TOKEN_USAGE,
    run: runTokenCommand,
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    'usage: content-service <command> [options]',
    ...Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`),
    'content-service <command> --help    the options of a command',
    'content-service --version',
    'exit codes: 0 done, 1 failed (one line says why; DEBUG=1 adds the stack), 2 wrong arguments',
  ].join('\n');
}

function version(): string {
  const file = new URL('../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

async function start(argv: string[], early?: Promise<EarlyStart>): Promise<void> {
  const options = parseStartOptions(argv);
  enterAppDir(options.appDir);
  const started: { logger?: Logger } = {};
  // from the app's register and bootstrap on, as long as the process serves
  const stopLoggingRejections = logUnhandledRejections(() => started.logger);
  const service = await createStartedServer(options, early).catch((err: unknown) => {
    stopLoggingRejections();
    throw err;
  });
  const { logger } = service.context;
  started.logger = logger;
  logger.info({ database: service.database }, `database: ${service.database}`);
  let url: string;
  try {
    const seeded = await seedDemoContent(service);
    if (seeded > 0) logger.info(`empty database: loaded ${seeded} demo operations from seed.json`);
    ({ url } = await service.start());
  } catch (err) {
    await service.stop();
    stopLoggingRejections();
    throw err;
  }
  logger.info(`Content Service listening on ${url}`);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // armed before anything else can fail: a log line to a closed stdout must not keep the process up
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      logger.info(`${signal}: stopping`);
    } catch {
      // the stop goes on without its line
    }
    service.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** The service of a start: on the database and configuration begun early by the entry script, if it did. */
async function createStartedServer(options: StartOptions, early: Promise<EarlyStart> | undefined) {
  const { appDir, memory, repair, overrides } = options;
  if (!early) return createServer({ appDir, memory, repair, config: overrides });
  const begun = await early;
  return createServer({ appDir, memory, repair, config: overrides, early: begun }).catch(async (err: unknown) => {
    await stopEarlyDatabase(begun);
    throw err;
  });
}

async function engine(argv: string[]): Promise<void> {
  const { main, parseArgs: parseEngineArgs } = await import('./engine/cli.js');
  let options: { host: string; port: number };
  try {
    options = parseEngineArgs(argv);
  } catch (err) {
    // the engine's own parser: its message is the problem, then its usage
    throw new ArgumentError((err as Error).message.split('\n')[0]);
  }
  try {
    await main(argv);
  } catch (err) {
    const { code } = err as NodeJS.ErrnoException;
    if (err instanceof Error && code !== undefined && isListenFailure(code))
      throw new ListenError(options.host, options.port, code, err, { port: '--port', host: '--host' });
    throw err;
  }
}

/**
 * Runs one command. Resolves with the exit code when the process should end now (a failure: 1, wrong
 * arguments: 2); undefined when it ends by itself (help, token) or keeps serving (start, engine).
 * `early`: the start the entry script began for these arguments (early-start-entry.ts).
 */
export async function run(argv: string[], launch: { early?: Promise<EarlyStart> } = {}): Promise<number | undefined> {
  const [name, ...rest] = argv;
  try {
    if (name === '--version' || name === '-v') return void console.log(version());
    if (name === undefined || name === '--help' || name === '-h') return void console.log(usage());
    if (name === 'help') {
      const topic = rest[0] !== undefined && Object.hasOwn(COMMANDS, rest[0]) ? COMMANDS[rest[0]] : undefined;
      return void console.log(topic ? await topic.usage() : usage());
    }
    const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!command) throw new ArgumentError(`unknown command "${name}"`);
    if (rest.includes('--help') || rest.includes('-h')) return void console.log(await command.usage());
    await command.run(rest, launch.early);
    return undefined;
  } catch (err) {
    return report(err, name !== undefined && Object.hasOwn(COMMANDS, name) ? name : undefined);
  }
}

/** Prints the failure on one line (its stack too when DEBUG is set); the exit code. */
function report(err: unknown, command: string | undefined): number {
  const wrongArguments = err instanceof ArgumentError || isParseArgsError(err);
  const message = wrongArguments ? (err as Error).message : failure(err);
  const help = command ? `content-service ${command} --help` : 'content-service --help';
  console.error(
    `content-service${command ? ` ${command}` : ''}: ${message.replace(/\s*\n\s*/g, ' ')}` +
      (wrongArguments ? ` (see ${help})` : ''),
  );
  if (process.env.DEBUG && err instanceof Error && err.stack) console.error(err.stack);
  return wrongArguments ? 2 : 1;
}

function isParseArgsError(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code?.toString().startsWith('ERR_PARSE_ARGS') === true;
}

const DATA_DIR_ERRORS = new Set(['DataDamagedError', 'DataDirLockedError']);

/** Failures the user can fix are said as they are; anything else is a bug, said in one line too. */
function failure(err: unknown): string {
  if (err instanceof SchemaError || err instanceof ConfigError || err instanceof ListenError) return err.message;
  if (!(err instanceof Error)) return String(err);
  // the embedded engine's data directory: damaged (see --repair) or held by another process
  if (DATA_DIR_ERRORS.has(err.name)) return err.message;
  // a database that cannot be reached or a URI that cannot be read (the URI may hold a password: not repeated)
  if (err.name.startsWith('Mongo')) return `the database (MONGODB_URI or database.uri): ${err.message}`;
  return `${err.message}${process.env.DEBUG ? '' : ' (unexpected: run with DEBUG=1 for the stack trace and report it)'}`;
}
