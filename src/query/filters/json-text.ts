/**
 * The text a `json` attribute is compared as. Strapi v4 stores JSON as text (`JSON.stringify` of the
 * value written, no spaces, keys in the order written) and its operators compare that text; here
 * the value is stored as BSON, so the same text is rebuilt by an aggregation expression. It has a
 * constant nesting depth (the command stays far below MongoDB's BSON depth limit) and expands the
 * value one nesting level per round: a round turns every value piece into text pieces and the
 * pieces of its members; MongoDB documents nest at most 100 levels, so 101 rounds always finish,
 * and once nothing is left to expand a round only reads a flag. Null or missing is null (SQL NULL).
 */

type Expr = Record<string, unknown>;

/** MongoDB refuses documents nested deeper than this, so no stored value needs more rounds. */
const MAX_DEPTH = 100;

/** The characters JSON.stringify escapes, and their escapes (control characters as \u00XX). */
const ESCAPES: [string, string][] = [
  ['\\', '\\\\'],
  ['"', '\\"'],
  ...Array.from({ length: 32 }, (_, code): [string, string] => [String.fromCharCode(code), controlEscape(code)]),
];

function controlEscape(code: number): string {
  const short: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };
  return short[code] ?? `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `"` + the JSON escape of a string expression + `"`. */
function quoted(text: unknown): Expr {
  const escaped = {
    $cond: [
      { $regexMatch: { input: text, regex: '["\\\\\\x00-\\x1f]' } },
      {
        $reduce: {
          input: { $literal: ESCAPES },
          initialValue: text,
          in: {
            $replaceAll: {
              input: '$$value',
              find: { $arrayElemAt: ['$$this', 0] },
              replacement: { $arrayElemAt: ['$$this', 1] },
            },
          },
        },
      },
      text,
    ],
  };
  return { $concat: ['"', escaped, '"'] };
}

/** A value piece's members as pieces: `,"key":` (or `,`) text before each member's value. */
function members(value: string, isObject: boolean): Expr {
  const entries = isObject ? { $objectToArray: value } : value;
  const pieces = (prefix: unknown, member: unknown) => [{ s: prefix }, { v: member }];
  return {
    $reduce: {
      input: entries,
      initialValue: [],
      in: {
        $concatArrays: [
          '$$value',
          pieces(
            {
              $concat: [
                { $cond: [{ $eq: [{ $size: '$$value' }, 0] }, '', ','] },
                ...(isObject ? [quoted('$$this.k'), ':'] : []),
              ],
            },
            isObject ? '$$this.v' : '$$this',
          ),
        ],
      },
    },
  };
}

/** The pieces one value piece expands into (a text piece stays as it is). */
function expandPiece(): Expr {
  const value = '$$piece.v';
  const text = (s: unknown) => [{ s }];
  return {
    $cond: [
      { $eq: [{ $type: '$$piece.s' }, 'string'] },
      ['$$piece'],
      {
        $switch: {
          branches: [
            {
              case: { $eq: [{ $type: value }, 'object'] },
              then: { $concatArrays: [text('{'), members(value, true), text('}')] },
            },
            {
              case: { $eq: [{ $type: value }, 'array'] },
              then: { $concatArrays: [text('['), members(value, false), text(']')] },
            },
            { case: { $eq: [{ $type: value }, 'string'] }, then: text(quoted(value)) },
            { case: { $eq: [{ $type: value }, 'bool'] }, then: text({ $cond: [value, 'true', 'false'] }) },
            {
              case: { $in: [{ $type: value }, ['int', 'long', 'double', 'decimal']] },
              then: text({ $toString: value }),
            },
            { case: { $eq: [{ $type: value }, 'date'] }, then: text(quoted({ $toString: value })) },
          ],
          default: text('null'),
        },
      },
    ],
  };
}

/** The JSON text of the value at `path` (`$metadata`), null when it is null or missing. */
export function jsonTextExpression(path: string): Expr {
  const round = {
    $cond: [
      '$$value.done',
      '$$value',
      {
        $let: {
          vars: {
            pieces: {
              $reduce: {
                input: { $map: { input: '$$value.pieces', as: 'piece', in: expandPiece() } },
                initialValue: [],
                in: { $concatArrays: ['$$value', '$$this'] },
              },
            },
          },
          in: {
            pieces: '$$pieces',
            done: {
              $allElementsTrue: [
                { $map: { input: '$$pieces', as: 'piece', in: { $eq: [{ $type: '$$piece.s' }, 'string'] } } },
              ],
            },
          },
        },
      },
    ],
  };
  const expanded = {
    $reduce: {
      input: { $range: [0, MAX_DEPTH + 1] },
      initialValue: { pieces: [{ v: '$$root' }], done: false },
      in: round,
    },
  };
  return {
    $let: {
      vars: { root: path },
      in: {
        $cond: [
          { $in: [{ $type: '$$root' }, ['missing', 'null']] },
          null,
          {
            $let: {
              vars: { text: expanded },
              in: { $reduce: { input: '$$text.pieces', initialValue: '', in: { $concat: ['$$value', '$$this.s'] } } },
            },
          },
        ],
      },
    },
  };
}

/** Attribute types Strapi stores as JSON text, which its operators compare: `json` and `blocks`. */
export function isJsonText(type: string): boolean {
  return type === 'json' || type === 'blocks';
}
