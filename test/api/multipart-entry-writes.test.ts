// Creates and updates sent as multipart/form-data, as Strapi v4's core controllers take them: the
// entry's data as JSON in `data`, its files under `files.<media attribute>`, stored with the entry.
import { expect } from 'chai';
import request from 'supertest';
import { createMediaApp, png, TEXT, type MediaApp } from '../helpers/media-app.js';

describe('REST writes as multipart/form-data (data + files.<media>)', () => {
  let media: MediaApp;
  let image: Buffer;
  before(async () => {
    media = await createMediaApp();
    image = await png(64, 48);
  });
  after(() => media.service.close());

  const api = () => request(media.service.app);
  const fileCount = async () =>
    (await api().get('/api/upload/files').set(media.auth).expect(200)).body.length as number;

  it('creates an entry with its files, then adds and replaces them on update', async () => {
    const created = await api()
      .post('/api/albums?populate=*')
      .set(media.auth)
      .field('data', JSON.stringify({ title: 'holiday' }))
      .attach('files.cover', image, { filename: 'cover.png', contentType: 'image/png' })
      .attach('files.photos', image, { filename: 'one.png', contentType: 'image/png' })
      .attach('files.photos', image, { filename: 'two.png', contentType: 'image/png' })
      .expect(200);
    const album = created.body.data;
    expect(album.attributes.title).to.equal('holiday');
    expect(album.attributes.cover.data.attributes).to.include({ name: 'cover.png', mime: 'image/png' });
    const photos = () =>
      api()
        .get(`/api/albums/${album.id}?populate=photos`)
        .set(media.auth)
        .expect(200)
        .then((res) =>
          res.body.data.attributes.photos.data.map((p: { attributes: { name: string } }) => p.attributes.name),
        );
    expect(await photos()).to.deep.equal(['one.png', 'two.png']);

    // an update's new files go after the entry's own in a multiple media, and replace a single one
    const updated = await api()
      .put(`/api/albums/${album.id}?populate=cover`)
      .set(media.auth)
      .field('data', JSON.stringify({ title: 'holiday 2' }))
      .attach('files.photos', image, { filename: 'three.png', contentType: 'image/png' })
      .attach('files.cover', image, { filename: 'new-cover.png', contentType: 'image/png' })
      .expect(200);
    expect(updated.body.data.attributes.title).to.equal('holiday 2');
    expect(updated.body.data.attributes.cover.data.attributes.name).to.equal('new-cover.png');
    expect(await photos()).to.deep.equal(['one.png', 'two.png', 'three.png']);

    // no file at all: the data alone, as a JSON body would
    const plain = await api()
      .post('/api/albums')
      .set(media.auth)
      .field('data', JSON.stringify({ title: 'empty' }));
    expect(plain.status).to.equal(200);
    expect(plain.body.data.attributes.title).to.equal('empty');
  });

  it('refuses what Strapi refuses, and a file its attribute does not accept, storing nothing', async () => {
    const before = await fileCount();
    const albums = (await api().get('/api/albums').set(media.auth).expect(200)).body.meta.pagination.total;
    const missing = await api().post('/api/albums').set(media.auth).field('title', 'x').expect(400);
    expect(missing.body.error).to.include({
      name: 'ValidationError',
      message: 'When using multipart/form-data you need to provide your data in a JSON "data" field.',
    });
    const invalid = await api().post('/api/albums').set(media.auth).field('data', '{oops').expect(400);
    expect(invalid.body.error.message).to.equal("Invalid 'data' field. 'data' should be a valid JSON.");
    // JSON that is no object: the write's own refusal, as for a JSON body (Strapi 4.26's message)
    const list = await api().post('/api/albums').set(media.auth).field('data', '[1]').expect(400);
    const notObject =
      'this must be a `object` type, but the final value was: `null` (cast from the value `[\n  {}\n]`).';
    expect(list.body.error).to.deep.equal({
      status: 400,
      name: 'ValidationError',
      message: notObject,
      details: { errors: [{ path: [], message: notObject, name: 'ValidationError' }] },
    });
    const unprefixed = await api()
      .post('/api/albums')
      .set(media.auth)
      .field('data', '{}')
      .attach('cover', image, { filename: 'c.png', contentType: 'image/png' })
      .expect(400);
    expect(unprefixed.body.error.name).to.equal('BadRequestError');
    expect(unprefixed.body.error.message).to.match(/^When using multipart\/form-data you need to provide your files/);
    const notMedia = await api()
      .post('/api/albums')
      .set(media.auth)
      .field('data', '{}')
      .attach('files.title', image, { filename: 'c.png', contentType: 'image/png' })
      .expect(400);
    expect(notMedia.body.error.message).to.equal('files.title: title is not a media attribute of api::album.album');
    // a text file where only images go: the write refuses it, and the stored file is removed again
    const refused = await api()
      .post('/api/albums')
      .set(media.auth)
      .field('data', JSON.stringify({ title: 'bad cover' }))
      .attach('files.cover', TEXT, { filename: 'notes.txt', contentType: 'text/plain' })
      .expect(400);
    expect(refused.body.error.name).to.equal('ValidationError');
    expect(await fileCount()).to.equal(before);
    expect((await api().get('/api/albums').set(media.auth).expect(200)).body.meta.pagination.total).to.equal(albums);
  });

  it('puts files into components and dynamic zone items by path, keeping what the data leaves out', async () => {
    const figures = (album: { attributes: Record<string, unknown> }) =>
      (
        album.attributes.figures as Array<{ caption: string; image: { data: { attributes: { name: string } } | null } }>
      ).map((figure) => [figure.caption, figure.image.data?.attributes.name ?? null]);
    const created = await api()
      .post('/api/albums?populate[figures][populate]=image&populate[body][populate]=*')
      .set(media.auth)
      .field(
        'data',
        JSON.stringify({
          title: 'nested',
          figures: [{ caption: 'first' }, { caption: 'second' }],
          body: [
            { __component: 'shared.note', text: 'a note' },
            { __component: 'shared.figure', caption: 'in the zone' },
          ],
        }),
      )
      .attach('files.figures.1.image', image, { filename: 'second.png', contentType: 'image/png' })
      .attach('files.body[1].image', image, { filename: 'zone.png', contentType: 'image/png' })
      .expect(200);
    const album = created.body.data;
    expect(figures(album)).to.deep.equal([
      ['first', null],
      ['second', 'second.png'],
    ]);
    expect(album.attributes.body[1]).to.deep.include({ __component: 'shared.figure', caption: 'in the zone' });
    expect(album.attributes.body[1].image.data.attributes.name).to.equal('zone.png');
    // an update whose data leaves the list out: the stored items stay, the named one gets the file
    const updated = await api()
      .put(`/api/albums/${album.id}?populate[figures][populate]=image`)
      .set(media.auth)
      .field('data', JSON.stringify({ title: 'nested 2' }))
      .attach('files.figures.0.image', image, { filename: 'first.png', contentType: 'image/png' })
      .expect(200);
    expect(figures(updated.body.data)).to.deep.equal([
      ['first', 'first.png'],
      ['second', 'second.png'],
    ]);

    const before = await fileCount();
    for (const [key, message] of [
      ['files.figures.5.image', 'files.figures.5.image: figures has no item 5'],
      ['files.figures.image', 'files.figures.image: figures is a list: name an item by its index'],
      ['files.body.0.image', 'files.body.0.image: image is not a media attribute of shared.note'],
      ['files.title.image', 'files.title.image: title is not a component of api::album.album'],
    ] as const) {
      const res = await api()
        .put(`/api/albums/${album.id}`)
        .set(media.auth)
        .field('data', '{}')
        .attach(key, image, { filename: 'x.png', contentType: 'image/png' })
        .expect(400);
      expect(res.body.error.message, key).to.equal(message);
    }
    expect(await fileCount()).to.equal(before);
  });

  it('needs the write’s permission, checked before the body is read', async () => {
    const res = await api()
      .post('/api/albums')
      .field('data', JSON.stringify({ title: 'anonymous' }))
      .attach('files.cover', image, { filename: 'c.png', contentType: 'image/png' });
    expect(res.status).to.equal(403);
  });
});
