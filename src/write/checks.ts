// Database checks run after the payload is valid and before anything is written: relation
// targets exist and unique values are free (a standalone mongod has no transactions, so nothing
// should fail once writing starts).
import type { ContentType } from '../content-types/index.js';
import { ValidationError, type ValidationIssue } from '../errors/index.js';
import type { Models } from '../models/index.js';
import { issue, messages, pathLabel } from './messages.js';
import { entries } from './collection.js';
import type { WritePlan } from './build.js';
import { mediaTypeIssues } from './media-types.js';

/** Strapi v4.26's message for relations to missing entries. */
async function missingTargets(models: Models, plan: WritePlan): Promise<string | null> {
  for (const uid of new Set([...plan.targets.keys(), ...plan.unmatched.keys()])) {
    const wanted = [...(plan.targets.get(uid) ?? [])];
    const found = wanted.length > 0 ? await entries(models, uid).countDocuments({ _id: { $in: wanted } }) : 0;
    const missing = wanted.length - found + (plan.unmatched.get(uid) ?? 0);
    if (missing > 0) return `${missing} relation(s) of type ${uid} associated with this entity do not exist`;
  }
  return null;
}

async function uniqueIssues(
  models: Models,
  contentType: ContentType,
  plan: WritePlan,
  entryId: number | null,
): Promise<ValidationIssue[]> {
  const issues: ValidationIssue[] = [];
  for (const check of plan.unique) {
    const filter: Record<string, unknown> = { [check.attribute]: check.value };
    if (entryId !== null) filter._id = { $ne: entryId };
    const taken = await entries(models, contentType.uid).countDocuments(filter, { limit: 1 });
    if (taken > 0) issues.push(issue([check.attribute], messages.unique()));
  }
  return issues;
}

/**
 * yup reports an object's errors in the order of its fields (Strapi's: the attributes'), the async
 * unique tests among them. Its sort (0.32's sortByKeyOrder) ranks an error by the first field whose
 * name is a substring of the error's path, so `subtitle`'s error ranks with `title`'s; errors of
 * one rank keep the order yup met them in, its fields from the last to the first.
 */
function inAttributeOrder(contentType: ContentType, issues: ValidationIssue[]): ValidationIssue[] {
  const names = Object.keys(contentType.attributes);
  const rank = (found: ValidationIssue) => {
    const label = pathLabel(found.path);
    const index = names.findIndex((name) => label.includes(name));
    return index === -1 ? names.length : index;
  };
  const own = (found: ValidationIssue) => names.indexOf(String(found.path[0]));
  return issues
    .map((found, order) => ({ found, order }))
    .sort((a, b) => rank(a.found) - rank(b.found) || own(b.found) - own(a.found) || a.order - b.order)
    .map(({ found }) => found);
}

/**
 * Throws the ValidationError of a plan that must not be written. `againstDatabase` false: a write
 * recomputed after a concurrent change skips the look-ups it passed already (the unique indexes
 * and the check after the write still hold it to them). `validate` false (the query engine's
 * writes): no media type look-ups either; relation targets must still exist.
 */
export async function assertWritable(
  models: Models,
  contentType: ContentType,
  plan: WritePlan,
  entryId: number | null,
  { againstDatabase = true, validate = true }: { againstDatabase?: boolean; validate?: boolean } = {},
): Promise<void> {
  // yup runs every test (abortEarly: false), the async unique tests included
  const unique = againstDatabase ? await uniqueIssues(models, contentType, plan, entryId) : [];
  // the check of the whole entry (its relations store, then its relations exist) reports after its fields
  const missing = plan.storeError === null && againstDatabase ? await missingTargets(models, plan) : null;
  const whole = plan.storeError ?? missing;
  const issues = [
    ...inAttributeOrder(contentType, [...plan.issues, ...unique]),
    ...(whole === null ? [] : [issue([], whole)]),
  ];
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  if (!validate) return;
  const wrongTypes = await mediaTypeIssues(models, plan.media);
  if (wrongTypes.length > 0) throw ValidationError.fromIssues(wrongTypes);
}

/** A second entry of one locale in a localization group (the check, and the unique index behind it). */
export const LOCALE_TAKEN: ValidationIssue = issue(['locale'], 'This locale is already used');

/** The 400 of a create that would be a second entry of its locale in its localization group. */
export class LocaleTakenError extends ValidationError {
  constructor() {
    super(LOCALE_TAKEN.message, { errors: [LOCALE_TAKEN] });
  }
}

/** A single type's entry (of this locale) was created by another request meanwhile. */
export class SingleEntryTaken extends Error {
  constructor() {
    super('the single type already has an entry');
  }
}

/**
 * A unique index refused the write (another request took the value between the check and the
 * write): the same 400 as the check gives, instead of a 500.
 */
export function uniqueViolation(error: unknown): Error | null {
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== 11000) return null;
  const keys = Object.keys((error as { keyPattern?: Record<string, unknown> }).keyPattern ?? {});
  if (keys.includes('localeGroup')) return new LocaleTakenError();
  if (keys.length === 1 && keys[0] === 'locale') return new SingleEntryTaken();
  const attribute = keys[0] ?? '_id';
  return ValidationError.fromIssues([issue([attribute], messages.unique())]);
}

/** Runs a write, turning a unique-index violation into Strapi's ValidationError. */
export async function writeOrUniqueError<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw uniqueViolation(error) ?? error;
  }
}
