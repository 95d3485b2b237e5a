// Collection validators through the driver, to mongod's documented behaviour: a document failing
// the validator is refused with 121 (DocumentValidationFailure) and errInfo (failingDocumentId,
// the $jsonSchema rules not satisfied); validationLevel moderate, validationAction warn,
// bypassDocumentValidation, collMod.
import { expect } from 'chai';
import type { Document } from 'mongodb';
import { type AnyDoc, serverError, startTestServer, type TestServer } from './helpers/server.js';

const schema = {
  $jsonSchema: {
    bsonType: 'object',
    required: ['title', 'year'],
    properties: {
      title: { bsonType: 'string', minLength: 2 },
      year: { bsonType: 'int', minimum: 1900 },
      tags: { bsonType: 'array', items: { bsonType: 'string' } },
    },
  },
};

function rule(details: Document, operatorName: string): Document {
  const rules = details.schemaRulesNotSatisfied as Document[];
  const found = rules.find((r) => r.operatorName === operatorName);
  expect(found, `${operatorName} in ${JSON.stringify(rules)}`).to.not.equal(undefined);
  return found as Document;
}

describe('engine: collection validators', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('validation');
  });
  after(async () => {
    await server.stop();
  });

  it('refuses an insert failing $jsonSchema with 121 and the rules it broke', async () => {
    const books = await server.db.createCollection<AnyDoc>('books', { validator: schema });
    await books.insertOne({ _id: 1, title: 'Dune', year: 1965 });
    const err = await serverError(books.insertOne({ _id: 2, title: 5 }));
    expect(err.code).to.equal(121);
    expect(err.message).to.equal('Document failed validation');
    const info = err.errInfo as Document;
    expect(info.failingDocumentId).to.equal(2);
    expect(info.details.operatorName).to.equal('$jsonSchema');
    expect(rule(info.details, 'required').missingProperties).to.deep.equal(['year']);
    const [title] = rule(info.details, 'properties').propertiesNotSatisfied as Document[];
    expect(title.propertyName).to.equal('title');
    expect(title.details[0]).to.include({
      operatorName: 'bsonType',
      reason: 'type did not match',
      consideredValue: 5,
      consideredType: 'int',
    });
    const low = await serverError(books.insertOne({ _id: 3, title: 'Old', year: 1800 }));
    const [year] = rule((low.errInfo as Document).details, 'properties').propertiesNotSatisfied as Document[];
    expect(year.details[0]).to.deep.include({ operatorName: 'minimum', specifiedAs: { minimum: 1900 } });
    expect(await books.countDocuments({})).to.equal(1);
  });

  it('refuses an update whose result fails, leaving the document as it was', async () => {
    const books = server.db.collection<AnyDoc>('books');
    const err = await serverError(books.updateOne({ _id: 1 }, { $set: { tags: ['sf', 7] } }));
    expect(err.code).to.equal(121);
    expect(await books.findOne({ _id: 1 })).to.deep.equal({ _id: 1, title: 'Dune', year: 1965 });
    const replaced = await serverError(books.replaceOne({ _id: 1 }, { title: 'Dune' }));
    expect(replaced.code).to.equal(121);
    const upsert = await serverError(books.updateOne({ _id: 9 }, { $set: { title: 'x' } }, { upsert: true }));
    expect(upsert.code).to.equal(121);
    const fam = await serverError(books.findOneAndUpdate({ _id: 1 }, { $unset: { year: '' } }));
    expect(fam.code).to.equal(121);
    await books.updateOne({ _id: 1 }, { $set: { tags: ['sf'] } });
    expect((await books.findOne({ _id: 1 }))?.tags).to.deep.equal(['sf']);
  });

  it('bypassDocumentValidation stores the document anyway', async () => {
    const books = server.db.collection<AnyDoc>('books');
    await books.insertOne({ _id: 4, title: 'x' }, { bypassDocumentValidation: true });
    expect(await books.findOne({ _id: 4 })).to.deep.equal({ _id: 4, title: 'x' });
  });

  it('validationLevel moderate: updates of documents that already failed are not checked', async () => {
    await server.db.command({ collMod: 'books', validationLevel: 'moderate' });
    const books = server.db.collection<AnyDoc>('books');
    await books.updateOne({ _id: 4 }, { $set: { note: 'still invalid' } });
    expect((await books.findOne({ _id: 4 }))?.note).to.equal('still invalid');
    expect((await serverError(books.updateOne({ _id: 1 }, { $set: { year: 'x' } }))).code).to.equal(121);
    expect((await serverError(books.insertOne({ _id: 5 }))).code).to.equal(121);
  });

  it('validationAction warn accepts the document', async () => {
    await server.db.command({ collMod: 'books', validationAction: 'warn' });
    const books = server.db.collection<AnyDoc>('books');
    await books.insertOne({ _id: 6, title: 1 });
    expect(await books.findOne({ _id: 6 })).to.deep.equal({ _id: 6, title: 1 });
    const [info] = await server.db.listCollections({ name: 'books' }, { nameOnly: false }).toArray();
    expect(info.options).to.deep.include({ validationLevel: 'moderate', validationAction: 'warn' });
    expect(info.options?.validator).to.deep.equal(schema);
  });

  it('collMod adds a query-operator validator to an existing collection', async () => {
    const posts = server.db.collection<AnyDoc>('posts');
    await posts.insertOne({ _id: 1, status: 'draft' });
    await server.db.command({ collMod: 'posts', validator: { status: { $in: ['draft', 'published'] } } });
    const err = await serverError(posts.insertOne({ _id: 2, status: 'deleted' }));
    expect(err.code).to.equal(121);
    expect((err.errInfo as Document).details.operatorName).to.equal('$in');
    await posts.insertOne({ _id: 3, status: 'published' });
    expect(await posts.countDocuments({})).to.equal(2);
  });

  it('refuses bad validators and options before storing anything', async () => {
    await serverError(server.db.createCollection('bad1', { validator: { $jsonSchema: { bsonType: 'nope' } } }));
    await serverError(server.db.createCollection('bad2', { validator: { $jsonSchema: { unknownKeyword: 1 } } }));
    const level = await serverError(server.db.command({ create: 'bad3', validationLevel: 'sometimes' }));
    expect(level.code).to.equal(2);
    const names = (await server.db.listCollections().toArray()).map((c) => c.name);
    expect(names).to.not.include.members(['bad1', 'bad2', 'bad3']);
    const missing = await serverError(server.db.command({ collMod: 'nothing', validationLevel: 'strict' }));
    expect(missing.code).to.equal(26);
  });
});
