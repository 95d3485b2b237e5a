import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createLogger } from '../../src/logger.js';

/** A stream that keeps what is written, and says whether it is a terminal. */
function sink(isTTY: boolean): { stream: Writable & { isTTY: boolean }; text(): string } {
  const chunks: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString('utf8'));
        done();
      },
    }),
    { isTTY },
  );
  return { stream, text: () => chunks.join('') };
}

describe('logger', () => {
  const saved = process.env.LOG_LEVEL;
  before(() => {
    process.env.LOG_LEVEL = 'info';
  });
  after(() => {
    if (saved === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = saved;
  });

  it('writes readable lines in development on a terminal', () => {
    const out = sink(true);
    createLogger('development', out.stream).info({ database: 'embedded' }, 'Content Service listening');
    expect(out.text()).to.match(/INFO.*Content Service listening/);
    expect(out.text()).to.include('database: "embedded"');
    expect(() => JSON.parse(out.text())).to.throw();
  });

  for (const [env, isTTY] of [
    ['development', false],
    ['production', true],
  ] as const)
    it(`writes JSON lines in ${env}${isTTY ? ' on a terminal' : ' to a pipe'}`, () => {
      const out = sink(isTTY);
      createLogger(env, out.stream).info('Content Service listening');
      expect(JSON.parse(out.text())).to.include({ level: 30, msg: 'Content Service listening' });
    });
});
