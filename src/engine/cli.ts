import type { EngineEvent } from './events.js';
import { startEngine } from './index.js';

export const USAGE =
  'usage: content-service engine [--port N] [--host H] [--data DIR | --memory] [--repair] [--max-time-ms N] [--no-transactions]\n' +
  '  --repair          move damaged bytes of the data files aside (into DIR) instead of refusing to start\n' +
  '  --max-time-ms N   budget of a command without its own maxTimeMS (default 60000; 0: none)\n' +
  '  --no-transactions refuse transactions (code 20) as a standalone mongod';

export interface CliOptions {
  port: number;
  host: string;
  dataDir?: string;
  repair: boolean;
  defaultMaxTimeMS?: number;
  transactions?: boolean;
}

export function parseArgs(argv: string[]): CliOptions {
  const opts: CliOptions = { port: 27017, host: '127.0.0.1', dataDir: '.data/engine', repair: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value\n${USAGE}`);
      return v;
    };
    switch (arg) {
      case '--port': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`invalid port\n${USAGE}`);
        opts.port = n;
        break;
      }
      case '--host':
        opts.host = value();
        break;
      case '--data':
        opts.dataDir = value();
        break;
      case '--memory':
        opts.dataDir = undefined;
        break;
      case '--repair':
        opts.repair = true;
        break;
      case '--max-time-ms': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 0) throw new Error(`invalid --max-time-ms\n${USAGE}`);
        opts.defaultMaxTimeMS = n;
        break;
      }
      case '--no-transactions':
        opts.transactions = false;
        break;
      case '--help':
      case '-h':
        throw new Error(USAGE);
      default:
        throw new Error(`unknown argument ${arg}\n${USAGE}`);
    }
  }
  return opts;
}

function print(event: EngineEvent): void {
  process.stderr.write(`engine: ${event.level === 'info' ? '' : `${event.level}: `}${event.message}\n`);
}

/** Runs the engine alone until SIGINT/SIGTERM (`content-service engine ...`). */
export async function main(argv: string[]): Promise<void> {
  const opts = parseArgs(argv);
  const engine = await startEngine({ ...opts, log: print });
  print({
    level: 'info',
    event: 'engine.listening',
    message: `listening on ${engine.uri} (${opts.dataDir ? `data in ${opts.dataDir}` : 'in memory'})`,
  });
  process.stdout.write(`${engine.uri}\n`);
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await engine.stop();
}
