import { pino, type Logger } from 'pino';

export interface LogLine {
  level: number;
  msg?: string;
  [key: string]: unknown;
}

/** A logger that keeps what it writes, parsed, for assertions on the service's log. */
export function capturingLogger(level = 'info'): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino(
    { level, base: undefined },
    { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
  );
  return { logger, lines };
}

/** pino's level numbers */
export const WARN = 40;
