import { Decimal128, Long } from 'bson';

export type Doc = Record<string, unknown>;

/** BSON type names as `$type` spells them (https://www.mongodb.com/docs/manual/reference/bson-types/). */
export type BsonTypeName =
  | 'minKey'
  | 'null'
  | 'undefined'
  | 'missing'
  | 'double'
  | 'int'
  | 'long'
  | 'decimal'
  | 'symbol'
  | 'string'
  | 'object'
  | 'array'
  | 'binData'
  | 'objectId'
  | 'bool'
  | 'date'
  | 'timestamp'
  | 'regex'
  | 'javascript'
  | 'dbPointer'
  | 'maxKey';

export const TYPE_NUMBERS: Record<string, number> = {
  double: 1,
  string: 2,
  object: 3,
  array: 4,
  binData: 5,
  undefined: 6,
  objectId: 7,
  bool: 8,
  date: 9,
  null: 10,
  regex: 11,
  dbPointer: 12,
  javascript: 13,
  symbol: 14,
  int: 16,
  timestamp: 17,
  long: 18,
  decimal: 19,
  minKey: -1,
  maxKey: 127,
};

export function isPlainObject(v: unknown): v is Doc {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function bsontype(v: object): string | undefined {
  const t = (v as { _bsontype?: unknown })._bsontype;
  return typeof t === 'string' ? t : undefined;
}

/** The BSON type of a deserialized value (bson 7 with promoteLongs off: int64 stays a `Long`). */
export function bsonTypeOf(v: unknown): BsonTypeName {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) && v >= -2147483648 && v <= 2147483647 && !Object.is(v, -0) ? 'int' : 'double';
    case 'bigint':
      return 'long';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'function':
      return 'javascript';
    case 'object':
      break;
    default:
      return 'undefined';
  }
  if (Array.isArray(v)) return 'array';
  if (v instanceof Date) return 'date';
  if (v instanceof RegExp) return 'regex';
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return 'binData';
  switch (bsontype(v)) {
    case 'ObjectId':
      return 'objectId';
    case 'Long':
      return 'long';
    case 'Decimal128':
      return 'decimal';
    case 'Int32':
      return 'int';
    case 'Double':
      return 'double';
    case 'Binary':
      return 'binData';
    case 'Timestamp':
      return 'timestamp';
    case 'MinKey':
      return 'minKey';
    case 'MaxKey':
      return 'maxKey';
    case 'BSONRegExp':
      return 'regex';
    case 'Code':
      return 'javascript';
    case 'BSONSymbol':
      return 'symbol';
    case 'DBRef':
      return 'object';
    default:
      return 'object';
  }
}

/** Canonical sort rank of a type (MongoDB "Comparison/Sort Order"); numbers share one rank, as do string/symbol. */
export function typeRank(t: BsonTypeName): number {
  switch (t) {
    case 'minKey':
      return 1;
    case 'missing':
    case 'undefined':
    case 'null':
      return 2;
    case 'int':
    case 'long':
    case 'double':
    case 'decimal':
      return 3;
    case 'symbol':
    case 'string':
      return 4;
    case 'object':
      return 5;
    case 'array':
      return 6;
    case 'binData':
      return 7;
    case 'objectId':
      return 8;
    case 'bool':
      return 9;
    case 'date':
      return 10;
    case 'timestamp':
      return 11;
    case 'regex':
      return 12;
    case 'dbPointer':
      return 13;
    case 'javascript':
      return 14;
    case 'maxKey':
      return 15;
  }
}

export function isNumeric(t: BsonTypeName): boolean {
  return t === 'int' || t === 'long' || t === 'double' || t === 'decimal';
}

/** A numeric BSON value as an exact bigint when it is integral, else as a double. */
export type NumericValue = { kind: 'int'; value: bigint } | { kind: 'float'; value: number };

export function numericValue(v: unknown): NumericValue {
  if (typeof v === 'number') {
    return Number.isInteger(v) && Number.isSafeInteger(v)
      ? { kind: 'int', value: BigInt(v) }
      : { kind: 'float', value: v };
  }
  if (typeof v === 'bigint') return { kind: 'int', value: v };
  if (v instanceof Long) return { kind: 'int', value: v.toBigInt() };
  if (v instanceof Decimal128) return decimalValue(v);
  const inner = (v as { value?: unknown }).value; // Int32 / Double wrappers
  return typeof inner === 'number' ? numericValue(inner) : { kind: 'float', value: Number.NaN };
}

function decimalValue(d: Decimal128): NumericValue {
  const s = d.toString();
  if (/^-?\d+$/.test(s)) return { kind: 'int', value: BigInt(s) };
  const m = /^(-?\d+)E\+?(\d+)$/i.exec(s);
  if (m) return { kind: 'int', value: BigInt(m[1]) * 10n ** BigInt(m[2]) };
  if (/^-?Infinity$/.test(s)) return { kind: 'float', value: s.startsWith('-') ? -Infinity : Infinity };
  if (s === 'NaN') return { kind: 'float', value: Number.NaN };
  return { kind: 'float', value: Number.parseFloat(s) };
}

export function compareNumeric(a: NumericValue, b: NumericValue): number {
  if (a.kind === 'int' && b.kind === 'int') return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  // NaN sorts before every other number (MongoDB treats NaN as the smallest number).
  const an = a.kind === 'float' && Number.isNaN(a.value);
  const bn = b.kind === 'float' && Number.isNaN(b.value);
  if (an || bn) return an && bn ? 0 : an ? -1 : 1;
  if (a.kind === 'float' && b.kind === 'float') return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  if (a.kind === 'int' && b.kind === 'float') return -compareFloatInt(b.value, a.value);
  if (a.kind === 'float' && b.kind === 'int') return compareFloatInt(a.value, b.value);
  return 0;
}

function compareFloatInt(f: number, i: bigint): number {
  if (f === Infinity) return 1;
  if (f === -Infinity) return -1;
  const fl = Math.floor(f);
  const fb = BigInt(fl);
  if (fb < i) return -1;
  if (fb > i) return 1;
  return f === fl ? 0 : 1;
}
