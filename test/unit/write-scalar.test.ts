import { expect } from 'chai';
import type { ScalarAttribute } from '../../src/content-types/index.js';
import { printValue, pathLabel } from '../../src/write/messages.js';
import { castScalar } from '../../src/write/scalar.js';

function cast(attribute: ScalarAttribute, value: unknown, path = ['x']) {
  return castScalar(attribute, path, value, { isDraft: false, rules: true });
}

function messagesOf(result: ReturnType<typeof cast>): string[] {
  if (result.ok) return [];
  return 'issues' in result ? result.issues.map((i) => i.message) : [result.storageError];
}

describe('write: scalar casting (Strapi v4 yup messages)', () => {
  it('prints values as yup does', () => {
    expect(printValue('many')).to.equal('"many"');
    expect(printValue(Number.NaN)).to.equal('NaN');
    expect(printValue({ a: 1 })).to.equal('{\n  "a": "1"\n}');
    expect(printValue([1, 'x'])).to.equal('[\n  "1",\n  "\\"x\\""\n]');
    expect(pathLabel(['links', '0', 'label'])).to.equal('links[0].label');
  });

  it('numbers: casts numeric strings, rejects others with the recorded message', () => {
    expect(cast({ type: 'integer' }, '12')).to.deep.equal({ ok: true, value: 12 });
    expect(messagesOf(cast({ type: 'integer' }, 'many', ['score']))).to.deep.equal([
      'score must be a `number` type, but the final value was: `NaN` (cast from the value `"many"`).',
    ]);
    expect(messagesOf(cast({ type: 'integer' }, 1.5))).to.deep.equal(['x must be an integer']);
    expect(messagesOf(cast({ type: 'integer', min: 0 }, -1))).to.deep.equal(['x must be greater than or equal to 0']);
    expect(messagesOf(cast({ type: 'float', max: 5 }, 6))).to.deep.equal(['x must be less than or equal to 5']);
    expect(cast({ type: 'decimal' }, 13.99)).to.deep.equal({ ok: true, value: 13.99 });
  });

  it('strings: numbers and objects are type errors (not cast), lengths and regex apply', () => {
    expect(messagesOf(cast({ type: 'string' }, 12))).to.deep.equal([
      'x must be a `string` type, but the final value was: `12`.',
    ]);
    expect(messagesOf(cast({ type: 'string' }, { a: 1 }))).to.deep.equal([
      'x must be a `string` type, but the final value was: `{\n  "a": "1"\n}`.',
    ]);
    expect(messagesOf(cast({ type: 'string', minLength: 3 }, 'ab'))).to.deep.equal(['x must be at least 3 characters']);
    expect(castScalar({ type: 'string', minLength: 3 }, ['x'], 'ab', { isDraft: true, rules: true }).ok).to.equal(true);
    expect(messagesOf(cast({ type: 'string', maxLength: 2 }, 'abc'))).to.deep.equal(['x must be at most 2 characters']);
    expect(messagesOf(cast({ type: 'string', regex: '^[a-z]+$' }, 'A1'))).to.deep.equal([
      'x must match the following: "/^[a-z]+$/"',
    ]);
  });

  it('enumeration, email, uid', () => {
    expect(
      messagesOf(cast({ type: 'enumeration', enum: ['news', 'opinion', 'review', 'tutorial'] }, 'x', ['kind'])),
    ).to.deep.equal(['kind must be one of the following values: news, opinion, review, tutorial, ']);
    expect(messagesOf(cast({ type: 'email' }, 'nope', ['contactEmail']))).to.deep.equal([
      'contactEmail must be a valid email',
    ]);
    expect(cast({ type: 'email' }, 'a@example.com').ok).to.equal(true);
    expect(messagesOf(cast({ type: 'uid' }, 'a b'))).to.have.length(1);
  });

  it('biginteger is stored as a BigInt', () => {
    expect(cast({ type: 'biginteger' }, '3000123457')).to.deep.equal({ ok: true, value: 3000123457n });
    expect(cast({ type: 'biginteger' }, 42)).to.deep.equal({ ok: true, value: 42n });
    expect(cast({ type: 'biginteger' }, '1.5').ok).to.equal(false);
  });

  it('boolean casts yup-style', () => {
    expect(cast({ type: 'boolean' }, 'true')).to.deep.equal({ ok: true, value: true });
    expect(cast({ type: 'boolean' }, 0)).to.deep.equal({ ok: true, value: false });
    expect(messagesOf(cast({ type: 'boolean' }, 'yes'))).to.deep.equal([
      'x must be a `boolean` type, but the final value was: `"yes"`.',
    ]);
  });

  it('date, time, datetime formats', () => {
    expect(cast({ type: 'date' }, '2023-01-08')).to.deep.equal({ ok: true, value: '2023-01-08' });
    expect(cast({ type: 'date' }, '2023-01-08T10:00:00.000Z')).to.deep.equal({ ok: true, value: '2023-01-08' });
    expect(cast({ type: 'date' }, '2023-02-30').ok).to.equal(false);
    expect(messagesOf(cast({ type: 'date' }, '2023-13-08'))).to.deep.equal(['Invalid format, expected yyyy-MM-dd']);
    expect(messagesOf(cast({ type: 'date' }, '2023-02-30'))).to.deep.equal(['Invalid date']);
    expect(cast({ type: 'time' }, '09:15:00.5')).to.deep.equal({ ok: true, value: '09:15:00.500' });
    expect(messagesOf(cast({ type: 'time' }, '09:15'))).to.deep.equal(['Invalid time format, expected HH:mm:ss.SSS']);
    expect(messagesOf(cast({ type: 'time' }, 915))).to.deep.equal(['Expected a string, got a number']);
    const dt = cast({ type: 'datetime' }, '2024-06-12T03:13:00.000Z');
    expect(dt.ok && dt.value instanceof Date && dt.value.toISOString()).to.equal('2024-06-12T03:13:00.000Z');
    expect(messagesOf(cast({ type: 'datetime' }, 'soon'))).to.deep.equal([
      'Invalid format, expected a timestamp or an ISO date',
    ]);
    const stamp = cast({ type: 'datetime' }, 1718161980000);
    expect(stamp.ok && stamp.value instanceof Date && stamp.value.toISOString()).to.equal('2024-06-12T03:13:00.000Z');
  });

  it('json takes any value', () => {
    expect(cast({ type: 'json' }, ['x', 2, true, null])).to.deep.equal({ ok: true, value: ['x', 2, true, null] });
  });
});
