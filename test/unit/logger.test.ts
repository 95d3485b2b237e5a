import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
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

  /** stdout of a child process that logs `script`'s lines through createLogger('production') on standard output */
  function childOutput(script: string): Promise<string> {
    const logger = fileURLToPath(new URL('../../src/logger.ts', import.meta.url));
    const code = `const { createLogger } = await import(${JSON.stringify(logger)}); const log = createLogger('production'); ${script}`;
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', code],
        { env: { ...process.env, LOG_LEVEL: 'info' } },
        (_error, stdout) => resolve(stdout),
      );
    });
  }

  it('standard output is written in batches, and nothing is lost when the process exits', async function () {
    this.timeout(20_000);
    const lines = (await childOutput(`for (let i = 0; i < 500; i++) log.info({ i }, 'request completed');`))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { i: number }).i);
    expect(lines).to.deep.equal(Array.from({ length: 500 }, (_, i) => i));
  });

  it('a warning reaches standard output at once, even if the process is killed right after', async function () {
    this.timeout(20_000);
    const out = await childOutput(
      `log.info('buffered'); log.warn('journal write failed'); setTimeout(() => process.kill(process.pid, 'SIGKILL'), 300);`,
    );
    expect(out).to.include('journal write failed');
  });
});
