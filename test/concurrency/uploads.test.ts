// Parallel uploads into one entry (`ref`, `refId`, `field`) over HTTP, then what is stored checked
// with the service's own models: every acknowledged file is in the entry, and an upload that did
// not land leaves no file behind.
import { expect } from 'chai';
import request from 'supertest';
import { ALBUM_UID, createMediaApp, png, type MediaApp } from '../helpers/media-app.js';

describe('concurrent uploads into one entry', function () {
  this.timeout(60_000);
  let media: MediaApp;
  let image: Buffer;
  before(async () => {
    media = await createMediaApp();
    image = await png(20, 20);
  });
  after(() => media.service.close());

  const album = async (data: object): Promise<number> => {
    const res = await request(media.service.app).post('/api/albums').set(media.auth).send({ data });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data.id as number;
  };
  const stored = async (id: number) =>
    (await media.service.context.models.collection(ALBUM_UID).findOne({ _id: id as never })) as Record<
      string,
      unknown
    > | null;
  const uploadInto = (ref: string, refId: number, field: string, name: string) =>
    request(media.service.app)
      .post('/api/upload')
      .set(media.auth)
      .attach('files', image, name)
      .field('ref', ref)
      .field('refId', String(refId))
      .field('field', field);
  const fileIds = async (): Promise<number[]> =>
    (await media.service.context.models.collection('plugin::upload.file').find({}).toArray()).map((f) => Number(f._id));
  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

  it('24 parallel uploads into a multiple media attribute and a component of one entry all land', async () => {
    const id = await album({ title: 'parallel', figures: [{ caption: 'one' }] });
    const figureId = ((await stored(id))?.figures as Array<{ id: number }>)[0]!.id;
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 3 === 2
          ? uploadInto('shared.figure', figureId, 'image', `figure-${i}.png`)
          : uploadInto(ALBUM_UID, id, 'photos', `photo-${i}.png`),
      ),
    );
    expect(answers.map((a) => a.status)).to.deep.equal(Array(24).fill(200));
    const photoIds = answers.filter((_, i) => i % 3 !== 2).map((a) => a.body[0].id as number);
    const entry = await stored(id);
    expect(sorted(entry?.photos as number[])).to.deep.equal(sorted(photoIds));
    // a single media attribute holds the last upload that wrote it: one of the acknowledged ones
    const figureIds = answers.filter((_, i) => i % 3 === 2).map((a) => a.body[0].id as number);
    expect(figureIds).to.include((entry?.figures as Array<{ image: number }>)[0]!.image);
  });

  it('an upload racing the deletion of its entry is stored and attached, or answered 400 with nothing stored', async () => {
    const id = await album({ title: 'doomed' });
    const before = await fileIds();
    const [deleted, ...uploads] = await Promise.all([
      request(media.service.app).delete(`/api/albums/${id}`).set(media.auth),
      ...Array.from({ length: 10 }, (_, i) => uploadInto(ALBUM_UID, id, 'photos', `late-${i}.png`)),
    ]);
    expect(deleted.status).to.equal(200);
    for (const answer of uploads) expect([200, 400]).to.include(answer.status);
    const acknowledged = uploads.filter((a) => a.status === 200).map((a) => a.body[0].id as number);
    const added = (await fileIds()).filter((f) => !before.includes(f));
    expect(sorted(added)).to.deep.equal(sorted(acknowledged));
    expect(await stored(id)).to.equal(null);
  });
});
