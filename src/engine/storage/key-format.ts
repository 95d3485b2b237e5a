import { bsonTypeOf, type Doc } from '../bson/types.js';

/** Renders a key value the way mongod prints it in E11000 messages: `{ email: "a@b.c" }`. */
export function formatKeyValue(keyValue: Doc): string {
  const parts = Object.entries(keyValue).map(([k, v]) => `${k}: ${formatValue(v)}`);
  return parts.length ? `{ ${parts.join(', ')} }` : '{}';
}

function formatValue(v: unknown): string {
  switch (bsonTypeOf(v)) {
    case 'string':
      return JSON.stringify(v);
    case 'missing':
    case 'null':
    case 'undefined':
      return 'null';
    case 'objectId':
      return `ObjectId('${(v as { toHexString(): string }).toHexString()}')`;
    case 'date':
      return `new Date(${(v as Date).getTime()})`;
    case 'long':
      return `${String(v)}`;
    case 'array':
      return `[ ${(v as unknown[]).map(formatValue).join(', ')} ]`;
    case 'object':
      return formatKeyValue(v as Doc);
    default:
      return String(v);
  }
}
