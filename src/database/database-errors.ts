import { ApplicationError, ServiceUnavailableError, type AppError } from '../errors/index.js';

/**
 * What a database refusal means for the client, by MongoDB error code (the embedded engine and a
 * real MongoDB answer the same codes). Anything else stays an unexpected error (500).
 */
const REFUSALS: Record<number, () => AppError> = {
  // MaxTimeMSExpired: the read went over its time budget (api.rest.timeBudgetMs). The engine counts
  // the command's own work, not time spent waiting for others, so this is the request asking too
  // much: repeating it would fail again, narrowing it helps (a 4xx, as the GraphQL cost limit).
  50: () =>
    new ApplicationError(
      'The request took too long: its database work went over the time budget and was stopped. ' +
        'Narrow it: populate fewer or less deeply nested relations, filter more selectively, or ask for a smaller page (pagination[pageSize]).',
      { reason: 'timeBudget' },
    ),
  // BSONObjectTooLarge: one answer document (an entry with everything populated into it) over 16 MB
  10334: () =>
    new ApplicationError(
      'The response is too large: an entry with its populated relations is over 16 MB. ' +
        'Narrow populate (fewer relations, fewer fields) or ask for a smaller page (pagination[pageSize]).',
      { reason: 'responseTooLarge' },
    ),
  // LogWriteFailed / UserWritesBlocked: the embedded engine could not write its journal (disk full,
  // I/O error) and refuses writes until it restarts
  42: () => writesRefused(),
  371: () => writesRefused(),
};

function writesRefused(): AppError {
  return new ServiceUnavailableError(
    'The database cannot store changes: a journal write failed (disk full or I/O error), so it refuses writes until the service is restarted. Reads still work.',
  );
}

/**
 * The driver's errors for a database it cannot reach (the connection broke, no server to select,
 * the pool cleared): the request may be retried, and a write cut this way may or may not be stored.
 */
const UNREACHABLE = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoPoolClearedError',
  'MongoServerClosedError',
  'MongoTopologyClosedError',
]);

function unreachable(): AppError {
  return new ServiceUnavailableError(
    'The database could not be reached; try again. A write cut this way may or may not have been stored.',
  );
}

/** The client-facing error for a database refusal, or undefined when `err` is not one. */
export function databaseRefusal(err: unknown): AppError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, name } = err as { code?: unknown; name?: unknown };
  if (typeof name === 'string' && UNREACHABLE.has(name)) return unreachable();
  if (typeof code !== 'number' || typeof name !== 'string' || !name.startsWith('Mongo')) return undefined;
  return Object.hasOwn(REFUSALS, code) ? REFUSALS[code]?.() : undefined;
}
