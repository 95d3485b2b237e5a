// The shape of a REST write's `data` and the relation check, as Strapi 4.26 answers them
// (answers recorded from the reference Strapi 4.26.2 on the fixture app).
import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeClient, type WriteClient } from '../helpers/write-client.js';

const NOTE = 'api::note.note';

describe('REST writes: the data payload and missing relation targets', () => {
  let service: TestService;
  let client: WriteClient;
  let noteId: number;
  before(async () => {
    service = await createTestService();
    client = await writeClient(service);
    const created = await client.post('/api/notes', { data: { title: 'kept' } });
    noteId = created.body.data.id as number;
  });
  after(() => service.close());

  const objectError = (printed: string) => {
    const message = `this must be a \`object\` type, but the final value was: \`null\` (cast from the value \`${printed}\`).`;
    return {
      status: 400,
      name: 'ValidationError',
      message,
      details: { errors: [{ path: [], message, name: 'ValidationError' }] },
    };
  };

  it('an array as data is yup’s type error on the whole payload, and nothing is written', async () => {
    const before = await client.count(NOTE);
    const empty = await client.post('/api/notes', { data: [] });
    expect([empty.status, empty.body]).to.deep.equal([400, { data: null, error: objectError('[]') }]);
    const items = await client.post('/api/notes', { data: [{ title: 'x' }] });
    expect(items.body.error).to.deep.equal(objectError('[\n  {\n    "title": "\\"x\\""\n  }\n]'));
    // items as Strapi's input sanitizer leaves them: ids dropped, strings spread, other values `{}`
    const mixed = await client.post('/api/notes', { data: [{ title: 'x', id: 3 }, 'a', null, [1]] });
    expect(mixed.body.error.message).to.equal(
      objectError('[\n  {\n    "title": "\\"x\\""\n  },\n  {\n    "0": "\\"a\\""\n  },\n  {},\n  [\n    {}\n  ]\n]')
        .message,
    );
    const update = await client.put(`/api/notes/${noteId}`, { data: [] });
    expect([update.status, update.body.error]).to.deep.equal([400, objectError('[]')]);
    expect(await client.count(NOTE)).to.equal(before);
    expect((await client.stored(NOTE, noteId))?.title).to.equal('kept');
  });

  it('an unknown id is a 404 before the payload is checked; a string is still the missing payload', async () => {
    const unknown = await client.put('/api/notes/999999', { data: [] });
    expect([unknown.status, unknown.body.error.name]).to.deep.equal([404, 'NotFoundError']);
    const text = await client.post('/api/notes', { data: 'x' });
    expect([text.status, text.body.error.message, text.body.error.details]).to.deep.equal([
      400,
      'Missing "data" payload in the request body',
      {},
    ]);
  });

  it('the query is checked first: a bad fields parameter before the payload and the lookup', async () => {
    const invalid = { status: 400, name: 'ValidationError', message: 'Invalid parameter nope', details: {} };
    const before = await client.count(NOTE);
    for (const res of [
      await client.post('/api/notes?fields[0]=nope', { data: 'x' }),
      await client.put('/api/notes/999999?fields[0]=nope', { data: { title: 'x' } }),
      await client.put(`/api/notes/${noteId}?fields[0]=nope`, { data: 'x' }),
      await client.del('/api/notes/999999?fields[0]=nope'),
      await client.del(`/api/notes/${noteId}?fields[0]=nope`),
    ])
      expect([res.status, res.body.error]).to.deep.equal([400, invalid]);
    expect(await client.count(NOTE)).to.equal(before);
  });

  it('a relation to a missing entry names it in details.errors with an empty path', async () => {
    const message = '1 relation(s) of type api::tag.tag associated with this entity do not exist';
    const res = await client.post('/api/articles', { data: { title: 'x', tags: [999] } });
    expect([res.status, res.body.error]).to.deep.equal([
      400,
      {
        status: 400,
        name: 'ValidationError',
        message,
        details: { errors: [{ path: [], message, name: 'ValidationError' }] },
      },
    ]);
  });
});
