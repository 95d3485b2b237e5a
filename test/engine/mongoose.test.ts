import { expect } from 'chai';
import mongoose, { Schema } from 'mongoose';
import { dbUri, startTestServer, type TestServer } from './helpers/server.js';

describe('engine: Mongoose models and unique indexes', () => {
  let server: TestServer;
  let conn: mongoose.Connection;
  before(async () => {
    server = await startTestServer('mongoose');
    conn = await mongoose.createConnection(dbUri(server, server.db.databaseName)).asPromise();
  });
  after(async () => {
    await conn.close();
    await server.stop();
  });

  it('raises MongoServerError 11000 with keyPattern and keyValue for a unique violation', async () => {
    const User = conn.model('User', new Schema({ _id: Number, email: { type: String, unique: true } }));
    await User.init();
    await User.create({ _id: 1, email: 'a@example.com' });
    const err = (await User.create({ _id: 2, email: 'a@example.com' }).catch((e: unknown) => e)) as {
      name: string;
      code: number;
      keyPattern: unknown;
      keyValue: unknown;
      message: string;
    };
    expect(err.name).to.equal('MongoServerError');
    expect(err.code).to.equal(11000);
    expect(err.keyPattern).to.deep.equal({ email: 1 });
    expect(err.keyValue).to.deep.equal({ email: 'a@example.com' });
    expect(err.message).to.match(
      /^E11000 duplicate key error collection: \S+\.users index: email_1 dup key: \{ email: "a@example\.com" \}$/,
    );
    const byId = (await User.create({ _id: 1, email: 'b@example.com' }).catch((e: unknown) => e)) as {
      code: number;
      keyValue: unknown;
    };
    expect(byId.code).to.equal(11000);
    expect(byId.keyValue).to.deep.equal({ _id: 1 });
    const upd = (await User.create({ _id: 3, email: 'c@example.com' })
      .then(() => User.updateOne({ _id: 3 }, { $set: { email: 'a@example.com' } }))
      .catch((e: unknown) => e)) as { code: number };
    expect(upd.code).to.equal(11000);
  });

  it('enforces compound unique sparse indexes (documents without the fields are left out)', async () => {
    const schema = new Schema({ _id: Number, slug: String, locale: String });
    schema.index({ slug: 1, locale: 1 }, { unique: true, sparse: true, name: 'slug_unique' });
    const Page = conn.model('Page', schema);
    await Page.init();
    await Page.create([
      { _id: 1, slug: 'home', locale: 'en' },
      { _id: 2, slug: 'home', locale: 'fr' },
      { _id: 3 },
      { _id: 4 },
    ]);
    const err = (await Page.create({ _id: 5, slug: 'home', locale: 'en' }).catch((e: unknown) => e)) as {
      code: number;
      keyPattern: unknown;
      keyValue: unknown;
    };
    expect(err.code).to.equal(11000);
    expect(err.keyPattern).to.deep.equal({ slug: 1, locale: 1 });
    expect(err.keyValue).to.deep.equal({ slug: 'home', locale: 'en' });
  });

  it('runs the model operations the service uses', async () => {
    const Post = conn.model('Post', new Schema({ _id: Number, title: String, tags: [Number], views: Number }));
    await Post.init();
    await Post.insertMany([
      { _id: 1, title: 'a', tags: [1], views: 3 },
      { _id: 2, title: 'b', tags: [], views: 1 },
      { _id: 3, title: 'c', views: 2 },
    ]);
    await Post.updateOne({ _id: 1 }, { $addToSet: { tags: 2 } });
    await Post.updateOne({ _id: 1 }, { $pull: { tags: 1 } });
    await Post.updateOne({ _id: 2 }, { $push: { tags: { $each: [5, 6] } } });
    const page = await Post.find({}, { title: 1, tags: 1 }).sort({ views: -1 }).skip(0).limit(2).lean();
    expect(page).to.deep.equal([
      { _id: 1, title: 'a', tags: [2] },
      { _id: 3, title: 'c', tags: [] },
    ]);
    expect(await Post.countDocuments({ views: { $gte: 2 } })).to.equal(2);
    expect(await Post.estimatedDocumentCount()).to.equal(3);
    await Post.deleteOne({ _id: 3 });
    await Post.deleteMany({ views: { $lt: 2 } });
    expect((await Post.find().lean()).map((p) => p._id)).to.deep.equal([1]);
  });
});
