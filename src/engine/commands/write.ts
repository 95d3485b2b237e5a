import { BSON, ObjectId } from 'bson';
import { valueKey } from '../bson/compare.js';
import { isPlainObject, type Doc } from '../bson/types.js';
import { CommandError, commandError, toCommandError } from '../errors.js';
import { compileFilter } from '../query/filter.js';
import { applyUpdate, updateKind, upsertSeed } from '../query/update.js';
import { checkId } from '../storage/collection.js';
import { collectionName, optionalDoc, pipelineEnv, type CommandContext, type CommandHandler } from './context.js';
import { matching, resolveHint } from './matching.js';
import { validateDocument } from './validation.js';
import { MAX_BSON_OBJECT_SIZE, MAX_WRITE_BATCH_SIZE } from '../protocol/wire.js';

interface WriteError {
  index: number;
  code: number;
  errmsg: string;
  [k: string]: unknown;
}

function writeError(index: number, err: unknown): WriteError {
  const e = err instanceof CommandError ? err : toCommandError(err);
  return { index, code: e.code, errmsg: e.message, ...e.extra };
}

function statements(cmd: Doc, field: string): unknown[] {
  const list = cmd[field];
  if (!Array.isArray(list))
    throw commandError(
      'FailedToParse',
      `BSON field '${Object.keys(cmd)[0]}.${field}' is missing but a required field`,
      { code: 40414 },
    );
  if (list.length > MAX_WRITE_BATCH_SIZE)
    throw commandError(
      'InvalidOptions',
      `Write batch sizes must be between 1 and ${MAX_WRITE_BATCH_SIZE}. Got ${list.length} operations.`,
    );
  return list;
}

/** Runs each statement; ordered batches stop at the first error (MongoDB write command semantics). */
function eachStatement<T>(list: T[], ordered: boolean, run: (item: T, index: number) => void): WriteError[] {
  const errors: WriteError[] = [];
  for (let i = 0; i < list.length; i++) {
    try {
      run(list[i], i);
    } catch (err) {
      errors.push(writeError(i, err));
      if (ordered) break;
    }
  }
  return errors;
}

function withErrors(reply: Doc, errors: WriteError[]): Doc {
  return errors.length ? { ...reply, writeErrors: errors, ok: 1 } : { ...reply, ok: 1 };
}

/** `_id` first, generated when absent; at most 16 MiB, as mongod stores. */
function prepareInsert(doc: unknown): Doc {
  if (!isPlainObject(doc)) throw commandError('TypeMismatch', 'document to insert must be an object');
  const size = BSON.calculateObjectSize(doc);
  if (size > MAX_BSON_OBJECT_SIZE)
    throw commandError(
      'BadValue',
      `object to insert too large. size in bytes: ${size}, max size: ${MAX_BSON_OBJECT_SIZE}`,
    );
  if (doc._id === undefined) return { _id: new ObjectId(), ...doc };
  if (Object.keys(doc)[0] === '_id') return doc;
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}

/** An updated (or upserted) document must still fit in 16 MiB. */
function checkUpdatedSize(doc: Doc): Doc {
  if (BSON.calculateObjectSize(doc) > MAX_BSON_OBJECT_SIZE)
    throw new CommandError(
      17419,
      'Location17419',
      `Resulting document after update is larger than ${MAX_BSON_OBJECT_SIZE}`,
    );
  return doc;
}

export const insert: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'insert');
  const docs = statements(cmd, 'documents');
  const { coll } = ctx.catalog.ensure(ctx.db, name);
  const bypass = cmd.bypassDocumentValidation === true;
  let n = 0;
  const errors = eachStatement(docs, cmd.ordered !== false, (raw) => {
    const doc = prepareInsert(raw);
    checkId(doc._id);
    validateDocument(ctx, coll, doc, undefined, bypass);
    ctx.catalog.insert(coll, doc);
    n++;
  });
  return withErrors({ n }, errors);
};

interface UpdateStatement {
  q: unknown;
  u: unknown;
  upsert?: boolean;
  multi?: boolean;
  arrayFilters?: unknown;
  collation?: unknown;
  hint?: unknown;
}

function asUpdateStatement(raw: unknown): UpdateStatement {
  if (!isPlainObject(raw) || raw.q === undefined || raw.u === undefined) {
    throw commandError('FailedToParse', "BSON field 'update.updates.q' is missing but a required field", {
      code: 40414,
    });
  }
  return raw as unknown as UpdateStatement;
}

export interface UpdateOutcome {
  matched: number;
  modified: number;
  upsertedId?: unknown;
  doc?: Doc;
  before?: Doc;
}

/** Applies one update statement (also used by findAndModify). */
export function updateDocuments(
  ctx: CommandContext,
  name: string,
  stmt: UpdateStatement,
  opts: { sort?: unknown; single?: boolean; bypassValidation?: boolean; variables?: Doc } = {},
): UpdateOutcome {
  const kind = updateKind(stmt.u);
  const multi = stmt.multi === true && !opts.single;
  if (multi && kind === 'replacement')
    throw commandError('FailedToParse', 'multi update is not supported for replacement-style update');
  const env = { ...pipelineEnv(ctx, stmt.collation), ...(opts.variables ? { variables: opts.variables } : {}) };
  const coll = ctx.catalog.get(ctx.db, name);
  const matches = matching(coll, {
    filter: stmt.q,
    sort: opts.sort,
    collation: stmt.collation,
    limit: multi ? undefined : 1,
    hint: resolveHint(coll, stmt.hint),
    variables: opts.variables,
    overlay: ctx.overlay,
  });
  if (coll) ctx.catalog.matched(coll, matches);
  if (matches.length === 0) {
    if (!stmt.upsert) return { matched: 0, modified: 0 };
    const seed =
      kind === 'replacement'
        ? (() => {
            const s = upsertSeed(stmt.q);
            return s._id !== undefined ? { _id: s._id } : {};
          })()
        : upsertSeed(stmt.q);
    let doc = checkUpdatedSize(
      applyUpdate(seed, stmt.u, { inserting: true, arrayFilters: stmt.arrayFilters, query: stmt.q, env }),
    );
    if (doc._id === undefined) doc = { _id: new ObjectId(), ...doc };
    const target = ctx.catalog.ensure(ctx.db, name).coll;
    validateDocument(ctx, target, doc, undefined, opts.bypassValidation === true);
    ctx.catalog.insert(target, doc);
    return { matched: 0, modified: 0, upsertedId: doc._id, doc };
  }
  let modified = 0;
  let last: Doc | undefined;
  let before: Doc | undefined;
  for (const old of matches) {
    const next = checkUpdatedSize(
      applyUpdate(old, stmt.u, { inserting: false, arrayFilters: stmt.arrayFilters, query: stmt.q, env }),
    );
    before = old;
    last = next;
    if (valueKey(next) === valueKey(old)) {
      last = old;
      continue;
    }
    validateDocument(ctx, coll!, next, old, opts.bypassValidation === true);
    ctx.catalog.replace(coll!, valueKey(old._id), next);
    modified++;
  }
  return { matched: matches.length, modified, doc: last, before };
}

export const update: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'update');
  const list = statements(cmd, 'updates');
  let n = 0;
  let nModified = 0;
  const upserted: Doc[] = [];
  const errors = eachStatement(list, cmd.ordered !== false, (raw, index) => {
    const out = updateDocuments(ctx, name, asUpdateStatement(raw), {
      bypassValidation: cmd.bypassDocumentValidation === true,
      variables: optionalDoc(cmd, 'let'),
    });
    if (out.upsertedId !== undefined) {
      upserted.push({ index, _id: out.upsertedId });
      n += 1;
    } else {
      n += out.matched;
      nModified += out.modified;
    }
  });
  return withErrors({ n, nModified, ...(upserted.length ? { upserted } : {}) }, errors);
};

export const deleteCommand: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'delete');
  const list = statements(cmd, 'deletes');
  let n = 0;
  const errors = eachStatement(list, cmd.ordered !== false, (raw) => {
    if (!isPlainObject(raw) || raw.q === undefined || raw.limit === undefined) {
      throw commandError('FailedToParse', "BSON field 'delete.deletes.q' is missing but a required field", {
        code: 40414,
      });
    }
    const limit = Number(raw.limit);
    if (limit !== 0 && limit !== 1)
      throw commandError('FailedToParse', `The limit field in delete objects must be 0 or 1. Got ${limit}`);
    const coll = ctx.catalog.get(ctx.db, name);
    if (!coll) {
      compileFilter(raw.q);
      return;
    }
    const docs = matching(coll, {
      filter: raw.q,
      collation: raw.collation,
      limit: limit === 1 ? 1 : undefined,
      hint: resolveHint(coll, raw.hint),
      variables: optionalDoc(cmd, 'let'),
      overlay: ctx.overlay,
    });
    ctx.catalog.matched(coll, docs);
    for (const d of docs) {
      ctx.catalog.remove(coll, valueKey(d._id));
      n++;
    }
  });
  return withErrors({ n }, errors);
};

export const findAndModify: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, cmd.findAndModify !== undefined ? 'findAndModify' : 'findandmodify');
  const query = cmd.query ?? {};
  const fields = optionalDoc(cmd, 'fields');
  const shape = (doc: Doc | undefined): Doc | null => {
    if (!doc) return null;
    if (!fields || Object.keys(fields).length === 0) return doc;
    return projectOne(doc, fields);
  };
  if (cmd.remove === true) {
    if (cmd.update !== undefined) throw commandError('FailedToParse', 'Cannot specify both an update and remove=true');
    const coll = ctx.catalog.get(ctx.db, name);
    const [doc] = matching(coll, {
      filter: query,
      sort: cmd.sort,
      collation: cmd.collation,
      limit: 1,
      hint: resolveHint(coll, cmd.hint),
      variables: optionalDoc(cmd, 'let'),
      overlay: ctx.overlay,
    });
    if (doc && coll) {
      ctx.catalog.matched(coll, [doc]);
      ctx.catalog.remove(coll, valueKey(doc._id));
    }
    return { lastErrorObject: { n: doc ? 1 : 0 }, value: shape(doc), ok: 1 };
  }
  if (cmd.update === undefined)
    throw commandError('FailedToParse', 'Either an update or remove=true must be specified');
  const out = updateDocuments(
    ctx,
    name,
    {
      q: query,
      u: cmd.update,
      upsert: cmd.upsert === true,
      arrayFilters: cmd.arrayFilters,
      collation: cmd.collation,
      hint: cmd.hint,
    },
    {
      sort: cmd.sort,
      single: true,
      bypassValidation: cmd.bypassDocumentValidation === true,
      variables: optionalDoc(cmd, 'let'),
    },
  );
  const lastErrorObject: Doc = { n: out.upsertedId !== undefined ? 1 : out.matched, updatedExisting: out.matched > 0 };
  if (out.upsertedId !== undefined) lastErrorObject.upserted = out.upsertedId;
  const value = cmd.new === true ? out.doc : out.before;
  return { lastErrorObject, value: shape(value), ok: 1 };
};

function projectOne(doc: Doc, fields: Doc): Doc {
  const include = Object.entries(fields).some(([k, v]) => k !== '_id' && v !== 0 && v !== false);
  const out: Doc = {};
  if (include) {
    if (fields._id !== 0 && fields._id !== false && doc._id !== undefined) out._id = doc._id;
    for (const [k, v] of Object.entries(fields))
      if (k !== '_id' && v !== 0 && v !== false && doc[k] !== undefined) out[k] = doc[k];
    return out;
  }
  for (const [k, v] of Object.entries(doc)) if (!(k in fields)) out[k] = v;
  return out;
}
