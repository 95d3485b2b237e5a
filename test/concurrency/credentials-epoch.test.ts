// The credentials epoch (src/database/credentials-epoch.ts) on real engines and the real driver:
// a change moves the shared counter and ends what every epoch on that database serves; polls that
// stop answering turn the caches off within `staleAfterMs`, and an answer turns them on again with
// nothing kept from before. Here the epoch's poll reads a database of its own (an engine this test
// stops and starts again), while its changes are written through the service's connection.
import { expect } from 'chai';
import mongoose, { type Connection } from 'mongoose';
import { CredentialsEpoch, credentialsEpochOptions } from '../../src/database/credentials-epoch.js';
import { startEngine, type Engine } from '../../src/engine/index.js';
import { CredentialCache } from '../../src/plugins/users-permissions/token-cache.js';
import { freshDatabaseUri } from '../helpers/server.js';
import { capturingLogger, WARN } from '../helpers/log-capture.js';

/** Waits for `condition`, failing after `withinMs`; answers the time it took. */
async function until(condition: () => boolean, withinMs: number, what: string): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    expect(Date.now() - started, what).to.be.below(withinMs);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

describe('the credentials epoch', function () {
  this.timeout(30_000);
  const options = credentialsEpochOptions(50);
  let connection: Connection;
  let uri: string;
  const epochs: CredentialsEpoch[] = [];
  const start = async (pollUri: string, logger = capturingLogger().logger) => {
    const epoch = await CredentialsEpoch.start(pollUri, connection, options, logger);
    epochs.push(epoch);
    return epoch;
  };

  before(async () => {
    uri = freshDatabaseUri();
    connection = await mongoose.createConnection(uri).asPromise();
  });
  after(async () => {
    for (const epoch of epochs) await epoch.stop();
    await connection.close();
  });

  it('ends what every epoch on the database serves: at once where the change was made, elsewhere within one poll', async () => {
    const here = await start(uri);
    const there = await start(uri);
    const caches = [new CredentialCache<string>(here), new CredentialCache<string>(there)];
    for (let round = 0; round < 3; round++) {
      caches[0]!.set('key', `value ${round}`, here.stamp);
      caches[1]!.set('key', `value ${round}`, there.stamp);
      expect(caches.map((cache) => cache.get('key'))).to.deep.equal([`value ${round}`, `value ${round}`]);
      await here.changed();
      expect(caches[0]!.get('key')).to.equal(undefined);
      await until(() => caches[1]!.get('key') === undefined, options.staleAfterMs, 'served after the change');
    }
  });

  it('keeps nothing while its polls go unanswered, and serves again once they answer', async () => {
    let engine: Engine = await startEngine({ host: '127.0.0.1', port: 0 });
    const { port } = engine;
    const { logger, lines } = capturingLogger();
    const epoch = await start(`mongodb://127.0.0.1:${port}/epoch`, logger);
    const cache = new CredentialCache<string>(epoch);
    cache.set('key', 'value', epoch.stamp);
    expect(cache.get('key')).to.equal('value');
    await engine.stop();
    // ten polls missed (at least a second): nothing served, nothing kept
    await until(() => epoch.stamp === undefined, options.staleAfterMs + 2000, 'still serving without an answered poll');
    expect(cache.get('key')).to.equal(undefined);
    cache.set('key', 'read again', epoch.stamp);
    expect(cache.get('key')).to.equal(undefined);
    expect(lines.some((line) => line.level === WARN && /credentials epoch was not read/.test(line.msg ?? ''))).to.equal(
      true,
    );
    engine = await startEngine({ host: '127.0.0.1', port });
    try {
      await until(() => epoch.stamp !== undefined, 10_000, 'no answered poll after the database came back');
      cache.set('key', 'fresh', epoch.stamp);
      expect(cache.get('key')).to.equal('fresh');
    } finally {
      await epoch.stop();
      epochs.splice(epochs.indexOf(epoch), 1);
      await engine.stop();
    }
  });

  it('serves an entry at most its longest life, however quiet the database', async () => {
    const epoch = await start(uri);
    const cache = new CredentialCache<string>(epoch);
    cache.set('key', 'value', epoch.stamp);
    expect(cache.get('key')).to.equal('value');
    await until(() => cache.get('key') === undefined, options.maxAgeMs + 2000, 'served past its longest life');
  });
});
