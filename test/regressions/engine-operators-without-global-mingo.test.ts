// Regression: the engine's aggregation stages used mingo's global operator registry, which is
// empty unless some other module imported 'mingo'. Tests passed (a test helper imports it) while
// `npm start` answered every aggregate with "unregistered pipeline operator". Run in a child
// process so nothing else in this test run has loaded 'mingo'.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

describe('regression: engine aggregation without the global mingo registry', () => {
  it('runs $project, $group, $lookup and count in a process that never imported mingo', function () {
    this.timeout(30_000);
    const script = fileURLToPath(new URL('../fixtures/engine-aggregate-probe.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      encoding: 'utf8',
      timeout: 25_000,
    });
    expect(run.stderr).to.equal('');
    expect(JSON.parse(run.stdout.trim())).to.deep.equal({
      project: [
        { _id: 1, a: 2 },
        { _id: 2, a: 1 },
      ],
      group: [{ _id: null, n: 2 }],
      lookup: [
        { _id: 1, a: 2, x: [{ _id: 2 }] },
        { _id: 2, a: 1, x: [{ _id: 1 }] },
      ],
      count: 1,
    });
  });
});
