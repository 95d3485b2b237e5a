/** A command failure carried back to the client as `{ ok: 0, errmsg, code, codeName }`. */
export class CommandError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** MongoDB error codes used by the engine (src/mongo/base/error_codes.yml in the MongoDB source). */
export const Codes = {
  InternalError: [1, 'InternalError'],
  BadValue: [2, 'BadValue'],
  FailedToParse: [9, 'FailedToParse'],
  TypeMismatch: [14, 'TypeMismatch'],
  IllegalOperation: [20, 'IllegalOperation'],
  NamespaceNotFound: [26, 'NamespaceNotFound'],
  IndexNotFound: [27, 'IndexNotFound'],
  LogWriteFailed: [42, 'LogWriteFailed'],
  CursorNotFound: [43, 'CursorNotFound'],
  MaxTimeMSExpired: [50, 'MaxTimeMSExpired'],
  NamespaceExists: [48, 'NamespaceExists'],
  InvalidIdField: [53, 'InvalidIdField'],
  CommandNotFound: [59, 'CommandNotFound'],
  ImmutableField: [66, 'ImmutableField'],
  CannotCreateIndex: [67, 'CannotCreateIndex'],
  InvalidNamespace: [73, 'InvalidNamespace'],
  IndexOptionsConflict: [85, 'IndexOptionsConflict'],
  IndexKeySpecsConflict: [86, 'IndexKeySpecsConflict'],
  CommandNotSupported: [115, 'CommandNotSupported'],
  InvalidOptions: [72, 'InvalidOptions'],
  UserWritesBlocked: [371, 'UserWritesBlocked'],
  Location40324: [40324, 'Location40324'],
  Location40081: [40081, 'Location40081'],
  Location51108: [51108, 'Location51108'],
  DuplicateKey: [11000, 'DuplicateKey'],
  BSONObjectTooLarge: [10334, 'BSONObjectTooLarge'],
  Location16410: [16410, 'Location16410'],
  NoSuchKey: [4, 'NoSuchKey'],
  InvalidLength: [16, 'InvalidLength'],
  TransactionTooOld: [225, 'TransactionTooOld'],
  NoSuchTransaction: [251, 'NoSuchTransaction'],
  TransactionCommitted: [256, 'TransactionCommitted'],
  OperationNotSupportedInTransaction: [263, 'OperationNotSupportedInTransaction'],
} as const satisfies Record<string, readonly [number, string]>;

export type CodeName = keyof typeof Codes;

export function commandError(name: CodeName, message: string, extra: Record<string, unknown> = {}): CommandError {
  const [code, codeName] = Codes[name];
  return new CommandError(code, codeName, message, extra);
}

/** Turns anything thrown while running a command into a `CommandError` (mingo throws plain errors). */
export function toCommandError(err: unknown): CommandError {
  if (err instanceof CommandError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const unknownOperator = /unknown (?:\w+ )?operator[: ]+'?(\$\w+)/i.exec(message);
  if (unknownOperator) return commandError('BadValue', `unknown operator: ${unknownOperator[1]}`);
  // mingo's update errors carry MongoDB's wording; give them MongoDB's codes too
  if (/would modify the immutable field '_id'/.test(message)) {
    return commandError(
      'ImmutableField',
      "Performing an update on the path '_id' would modify the immutable field '_id'",
    );
  }
  if (/would create a conflict at/.test(message)) {
    return new CommandError(40, 'ConflictingUpdateOperators', message.replace(/^updating/, 'Updating'));
  }
  const [code, codeName] = Codes.BadValue;
  return new CommandError(code, codeName, message);
}
