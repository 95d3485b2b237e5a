// A write's transaction whose session is ended while the write fails (the client's close ends every
// active session, aborting its transaction: an app's bootstrap that is not awaited may still be
// writing when the service stops). The driver then aborts a second time after the failure, and that
// abort threw "Attempted illegal state transition from [TRANSACTION_ABORTED] to
// [TRANSACTION_ABORTED]" in place of the write's own error. The caller gets the write's error, and
// nothing of the failed write is stored.
import { expect } from 'chai';
import { MongoServerError } from 'mongodb';
import { ValidationError } from '../../src/errors/index.js';
import { inTransaction } from '../../src/write/scope.js';
import { createTestService, type TestService } from '../helpers/server.js';

describe('a write whose transaction session is ended while it fails', () => {
  let service: TestService;
  const notes = () => service.context.connection.db!.collection<{ _id: string }>('ended_session_notes');

  before(async () => {
    service = await createTestService();
    expect(service.context.models.transactions).to.equal(true);
    await notes().insertOne({ _id: 'taken' });
  });
  after(() => service.close());

  it("answers the write's own error (not the driver's second abort) and stores nothing of it", async () => {
    let ending: Promise<void> | undefined;
    const error = await inTransaction(service.context.models, async ({ session }) => {
      await notes().insertOne({ _id: 'half' }, { session });
      ending = session!.endSession();
      throw ValidationError.fromIssues([{ path: ['text'], message: 'the original error', name: 'ValidationError' }]);
    }).catch((e: unknown) => e);
    await ending;
    expect(error).to.be.instanceOf(ValidationError);
    expect((error as Error).message).to.equal('the original error');
    expect(await notes().findOne({ _id: 'half' })).to.equal(null);
  });

  it("answers the database's error of a failed command the same way", async () => {
    let ending: Promise<void> | undefined;
    const error = await inTransaction(service.context.models, async ({ session }) => {
      await notes().insertOne({ _id: 'half' }, { session });
      try {
        await notes().insertOne({ _id: 'taken' }, { session });
      } finally {
        ending = session!.endSession();
      }
    }).catch((e: unknown) => e);
    await ending;
    expect(error).to.be.instanceOf(MongoServerError);
    expect((error as MongoServerError).code).to.equal(11000);
    expect(await notes().findOne({ _id: 'half' })).to.equal(null);
  });
});
