import { expect } from 'chai';
import { env } from '../../src/config/index.js';

/** Strapi v4's env helper, rule by rule (packages/core/utils env-helper). */
describe('config: the env helper', () => {
  const NAME = 'CS_ENV_HELPER_TEST';
  afterEach(() => {
    delete process.env[NAME];
  });
  const set = (value: string) => {
    process.env[NAME] = value;
  };

  it('env(name, default): the raw string when set, even empty; the default otherwise', () => {
    expect(env(NAME)).to.equal(undefined);
    expect(env(NAME, 'fallback')).to.equal('fallback');
    set('');
    expect(env(NAME, 'fallback')).to.equal('');
    set(' 42 ');
    expect(env(NAME, 'fallback')).to.equal(' 42 ');
  });

  it('env.int: parseInt base 10 (leading digits count, garbage is NaN, empty is NaN)', () => {
    expect(env.int(NAME, 7)).to.equal(7);
    set('42');
    expect(env.int(NAME, 7)).to.equal(42);
    set('12px');
    expect(env.int(NAME, 7)).to.equal(12);
    set('3.9');
    expect(env.int(NAME)).to.equal(3);
    set('0x10');
    expect(env.int(NAME)).to.equal(0);
    set('abc');
    expect(env.int(NAME, 7)).to.be.NaN;
    set('');
    expect(env.int(NAME, 7)).to.be.NaN;
  });

  it('env.float: parseFloat', () => {
    expect(env.float(NAME, 1.5)).to.equal(1.5);
    set('2.75');
    expect(env.float(NAME)).to.equal(2.75);
    set('1e3');
    expect(env.float(NAME)).to.equal(1000);
    set('x');
    expect(env.float(NAME, 1.5)).to.be.NaN;
  });

  it('env.bool: true only for the exact string "true"', () => {
    expect(env.bool(NAME, true)).to.equal(true);
    expect(env.bool(NAME)).to.equal(undefined);
    set('true');
    expect(env.bool(NAME, false)).to.equal(true);
    for (const value of ['TRUE', '1', 'yes', ' true', '']) {
      set(value);
      expect(env.bool(NAME, true), value).to.equal(false);
    }
  });

  it('env.json: parsed JSON, a clear error for invalid JSON', () => {
    expect(env.json(NAME, { a: 1 })).to.deep.equal({ a: 1 });
    set('{"b":[1,2]}');
    expect(env.json(NAME)).to.deep.equal({ b: [1, 2] });
    set('"text"');
    expect(env.json(NAME)).to.equal('text');
    set('{bad');
    expect(() => env.json(NAME)).to.throw(/^Invalid json environment variable CS_ENV_HELPER_TEST: /);
  });

  it('env.array: one pair of brackets stripped, split on commas, spaces then double quotes trimmed', () => {
    expect(env.array(NAME, ['x'])).to.deep.equal(['x']);
    set('a,b , c');
    expect(env.array(NAME)).to.deep.equal(['a', 'b', 'c']);
    set('[a, "b", " c "]');
    expect(env.array(NAME)).to.deep.equal(['a', 'b', ' c ']);
    set('["keyA==","keyB=="]');
    expect(env.array(NAME)).to.deep.equal(['keyA==', 'keyB==']);
    set("'a','b'");
    expect(env.array(NAME)).to.deep.equal(["'a'", "'b'"]);
    set('');
    expect(env.array(NAME)).to.deep.equal(['']);
  });

  it('env.date: new Date(value)', () => {
    const fallback = new Date(0);
    expect(env.date(NAME, fallback)).to.equal(fallback);
    set('2024-02-03T04:05:06Z');
    expect(env.date(NAME)?.toISOString()).to.equal('2024-02-03T04:05:06.000Z');
    set('not a date');
    expect(Number.isNaN(env.date(NAME)?.getTime())).to.equal(true);
  });

  it('env.oneOf: the value when expected, else the default; checks its arguments', () => {
    expect(env.oneOf(NAME, ['a', 'b'], 'a')).to.equal('a');
    set('b');
    expect(env.oneOf(NAME, ['a', 'b'], 'a')).to.equal('b');
    set('c');
    expect(env.oneOf(NAME, ['a', 'b'], 'a')).to.equal('a');
    expect(env.oneOf(NAME, ['a', 'b'])).to.equal(undefined);
    expect(() => env.oneOf(NAME)).to.throw('env.oneOf requires expectedValues');
    expect(() => env.oneOf(NAME, ['a'], 'z')).to.throw(
      'env.oneOf requires defaultValue to be included in expectedValues',
    );
  });
});
