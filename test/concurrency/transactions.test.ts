// Transactions are used where the database has them (a replica set or mongos). No replica set runs
// on this machine: these tests show the decision on the embedded engine (a standalone: none) and,
// with transactions forced on, that a write's commands carry the transaction and that a database
// refusing it leaves nothing written. A replica set is needed to run the committed path itself.
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, freshDatabaseUri, type TestService } from '../helpers/server.js';

describe('write transactions', () => {
  let service: TestService;
  const commands: { name: string; transaction: boolean }[] = [];
  let token: string;
  before(async () => {
    const uri = new URL(freshDatabaseUri());
    uri.searchParams.set('monitorCommands', 'true');
    service = await createTestService({}, uri.toString());
    service.context.connection.getClient().on('commandStarted', (event) => {
      commands.push({ name: event.commandName, transaction: event.command.startTransaction === true });
    });
    token = (await createApiToken(service.context, { name: 'tx', type: 'full-access' })).accessKey;
  });
  after(() => service.close());

  it('the embedded engine answers like a standalone server: no transactions', () => {
    expect(service.context.models.transactions).to.equal(false);
  });

  it('forced on, a create starts a transaction with its first write, and a refusal writes nothing', async () => {
    const notes = service.context.models.collection('api::note.note');
    const before = await notes.countDocuments();
    service.context.models.transactions = true;
    commands.length = 0;
    try {
      const res = await request(service.app)
        .post('/api/notes')
        .set({ Authorization: `Bearer ${token}` })
        .send({ data: { title: 'in a transaction' } });
      expect(res.status).to.equal(500);
    } finally {
      service.context.models.transactions = false;
    }
    expect(commands.find((c) => c.name === 'insert')).to.deep.equal({ name: 'insert', transaction: true });
    expect(await notes.countDocuments()).to.equal(before);
  });
});
