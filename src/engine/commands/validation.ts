import { valueKey } from '../bson/compare.js';
import { isPlainObject, type Doc } from '../bson/types.js';
import { CommandError, commandError } from '../errors.js';
import { compileValidator } from '../query/validator.js';
import type { Collection } from '../storage/collection.js';
import type { CommandContext } from './context.js';

const LEVELS = ['off', 'strict', 'moderate'];
const ACTIONS = ['error', 'warn'];

/**
 * Checks `validator`, `validationLevel` and `validationAction` as `create` and `collMod` receive
 * them (the validator compiles, so a bad one is refused before it is stored).
 */
export function checkValidationOptions(options: Doc): void {
  const { validator, validationLevel, validationAction } = options;
  if (validator !== undefined) {
    if (!isPlainObject(validator)) throw commandError('TypeMismatch', "'validator' has to be a document");
    compileValidator(validator);
  }
  if (validationLevel !== undefined && !LEVELS.includes(String(validationLevel)))
    throw commandError(
      'BadValue',
      `Enumeration value '${String(validationLevel)}' for field 'validationLevel' is not a valid value.`,
    );
  if (validationAction !== undefined && !ACTIONS.includes(String(validationAction)))
    throw commandError(
      'BadValue',
      `Enumeration value '${String(validationAction)}' for field 'validationAction' is not a valid value.`,
    );
}

/**
 * Applies a collection's validator to a document about to be stored (`old`: the version it
 * replaces). `validationLevel: 'moderate'` leaves updates of documents that already failed alone;
 * `validationAction: 'warn'` logs instead of refusing; a refusal is mongod's 121 with `errInfo`.
 */
export function validateDocument(
  ctx: CommandContext,
  coll: Collection,
  doc: Doc,
  old: Doc | undefined,
  bypass: boolean,
): void {
  const { validator, validationLevel, validationAction } = coll.options;
  if (bypass || !isPlainObject(validator) || Object.keys(validator).length === 0 || validationLevel === 'off') return;
  const check = compileValidator(validator);
  const details = check(doc);
  if (!details) return;
  if (validationLevel === 'moderate' && old && check(old)) return;
  if (validationAction === 'warn') {
    ctx.server.log({
      level: 'warn',
      event: 'validation.failed',
      message: `Document would fail validation collection: ${coll.ns} _id: ${valueKey(doc._id)}`,
      details: { ns: coll.ns, errInfo: { failingDocumentId: doc._id, details } },
    });
    return;
  }
  throw new CommandError(121, 'DocumentValidationFailure', 'Document failed validation', {
    errInfo: { failingDocumentId: doc._id, details },
  });
}
