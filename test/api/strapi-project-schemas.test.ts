// A Strapi v4 project as real ones are written (test/fixtures/strapi-project): a users-permissions
// extension with relations both ways and media, custom fields (known, configured, unknown), odd
// enumeration values, a manyToMany declared inversedBy on both sides, relations to plugin and
// admin types, blocks, and code the service does not run. Started as `content-service start` would.
import { expect } from 'chai';
import request from 'supertest';
import { STRAPI_PROJECT } from '../helpers/fixtures.js';
import { capturingLogger, WARN } from '../helpers/log-capture.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { bearer } from './users-permissions/helpers.js';

const INFO = 30;

describe('a Strapi v4 project: schemas as real projects write them', () => {
  let service: TestService;
  let jwt: string;
  let userId: number;
  const { logger, lines: logs } = capturingLogger();
  const fileIds: number[] = [];

  const api = () => request(service.app);
  const auth = () => bearer(jwt);
  const gql = async (query: string, variables?: Record<string, unknown>) => {
    const res = await api().post('/graphql').set(auth()).send({ query, variables });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { data: Record<string, unknown>; errors?: Array<{ message: string; path?: unknown[] }> };
  };

  before(async () => {
    service = await createTestService({ appDir: STRAPI_PROJECT, logger });
    const files = service.context.connection.collection('files');
    for (const id of [1, 2]) {
      await files.insertOne({
        _id: id as never,
        name: `photo-${id}.png`,
        hash: `photo_${id}`,
        ext: '.png',
        mime: 'image/png',
        size: 1.5,
        url: `/uploads/photo_${id}.png`,
        provider: 'local',
      });
      fileIds.push(id);
    }
    const registered = await api()
      .post('/api/auth/local/register')
      .send({ username: 'dana', email: 'Dana@Example.com', password: 'Password123!', fullName: 'Dana Scully' });
    expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
    jwt = registered.body.jwt as string;
    userId = registered.body.user.id as number;
    expect(registered.body.user).to.include({ username: 'dana', email: 'dana@example.com', fullName: 'Dana Scully' });
  });
  after(() => service.close());

  describe('start-up', () => {
    const lines = (level: number) => logs.filter((l) => l.level === level).map((l) => l.msg ?? '');

    it('warns once, naming the field and the mapping to add, for a custom field of unknown base type', () => {
      const warnings = lines(WARN).filter((m) => m.includes('plugin::mystery-widgets.mood'));
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.match(/profile\/schema\.json \(attribute "mood"\).*stored as JSON/);
      expect(warnings[0]).to.include('config/custom-fields');
      expect(lines(WARN).join('\n')).to.not.include('plugin::star-rating.rating'); // configured
      expect(lines(WARN).join('\n')).to.not.include('plugin::color-picker.color'); // known
    });

    it('says in one info line each what it does not run', () => {
      const info = lines(INFO);
      const one = (pattern: RegExp) =>
        expect(
          info.filter((m) => pattern.test(m)),
          String(pattern),
        ).to.have.length(1);
      expect(info.join('\n')).to.not.include('lifecycles.js'); // run, see below
      // the users-permissions extension runs (its route is tried below)
      expect(info.join('\n')).to.not.include('strapi-server');
      // the customised controller runs, Strapi's generated router and service are not worth a line
      expect(info.join('\n')).to.not.include('profile.js');
      one(/keeps the plugin's attributes it leaves out \(confirmationToken\)/);
      one(/manyToMany declared inversedBy on both sides; api::student\.student\.courses stores the links/);
    });

    it('warns about enumeration values Strapi v4 cannot name in GraphQL', () => {
      const warning = lines(WARN).find((m) => m.includes('(attribute "kind")'));
      expect(warning).to.include('"1st choice" → _1st_choice');
      expect(warning).to.include('"日本語" → _5');
    });
  });

  describe('custom fields', () => {
    let profileId: number;

    it('stores and validates each as its base type, options kept', async () => {
      const created = await api()
        .post('/api/profiles')
        .set(auth())
        .send({
          data: {
            handle: '  dana ',
            color: '#00ff88',
            tags: ['x-files', 'fbi'],
            rating: '4',
            mood: { calm: true, level: 3 },
            user: userId,
          },
        });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      profileId = created.body.data.id as number;
      // the content-type's lifecycles.js trimmed the handle before it was stored
      expect(created.body.data.attributes).to.include({ handle: 'dana', color: '#00ff88', rating: 4 });
      expect(created.body.data.attributes.tags).to.deep.equal(['x-files', 'fbi']);
      expect(created.body.data.attributes.mood).to.deep.equal({ calm: true, level: 3 });
      const attribute = service.context.registry.attribute('api::profile.profile', 'color');
      expect(attribute).to.deep.include({
        type: 'string',
        customField: 'plugin::color-picker.color',
        options: { format: 'hex' },
      });
      expect(service.context.registry.attribute('api::profile.profile', 'mood')).to.include({ type: 'json' });
    });

    it('answers a 400 in Strapi shape for a value its base type refuses, and writes nothing', async () => {
      for (const data of [{ color: 'red' }, { rating: 'lots' }, { rating: 9 }]) {
        const res = await api().put(`/api/profiles/${profileId}`).set(auth()).send({ data });
        expect(res.status, JSON.stringify(data)).to.equal(400);
        expect(res.body.data).to.equal(null);
        expect(res.body.error.name).to.equal('ValidationError');
      }
      const read = await api().get(`/api/profiles/${profileId}`);
      expect(read.body.data.attributes).to.include({ color: '#00ff88', rating: 4 });
    });

    it('exposes them in GraphQL as their base types', async () => {
      const { data } = await gql(`{ profile(id: ${profileId}) { data { attributes { color tags rating mood } } } }`);
      expect(data.profile).to.deep.equal({
        data: { attributes: { color: '#00ff88', tags: ['x-files', 'fbi'], rating: 4, mood: { calm: true, level: 3 } } },
      });
      const typed = await gql(`{ __type(name: "Profile") { fields { name type { name kind ofType { name } } } } }`);
      const fields = (typed.data.__type as { fields: Array<{ name: string; type: { name: string | null } }> }).fields;
      const typeOf = (name: string) => fields.find((f) => f.name === name)?.type.name;
      expect([typeOf('color'), typeOf('tags'), typeOf('rating'), typeOf('mood'), typeOf('bio')]).to.deep.equal([
        'String',
        'JSON',
        'Int',
        'JSON',
        'JSON',
      ]);
    });

    it('resolves custom fields inside components', async () => {
      const res = await api()
        .put(`/api/profiles/${profileId}?populate=links`)
        .set(auth())
        .send({ data: { links: [{ label: 'Site', href: 'https://example.com', slug: 'site', accent: '#123456' }] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.attributes.links[0]).to.include({ slug: 'site', accent: '#123456' });
      const bad = await api()
        .put(`/api/profiles/${profileId}`)
        .set(auth())
        .send({ data: { links: [{ href: 'x', accent: { not: 'a string' } }] } });
      expect(bad.status).to.equal(400);
    });
  });

  describe('enumeration values that are not GraphQL names', () => {
    it('REST keeps the stored values; GraphQL names them as Strapi v4 does, both ways', async () => {
      const created = await api()
        .post('/api/profiles')
        .set(auth())
        .send({ data: { handle: 'mulder', kind: 'Ünïcode ', level: 'senior' } });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body.data.attributes).to.include({ kind: 'Ünïcode ', level: 'senior' });
      const id = created.body.data.id as number;

      const values = await gql('{ __type(name: "ENUM_PROFILE_KIND") { enumValues { name } } }');
      expect(
        (values.data.__type as { enumValues: Array<{ name: string }> }).enumValues.map((v) => v.name),
      ).to.deep.equal(['Full_Time', 'part_time', 'a_b', '_1st_choice', 'Uenicode', '_5', 'Remote']);
      const read = await gql(`{ profile(id: ${id}) { data { attributes { kind level } } } }`);
      expect(read.data.profile).to.deep.equal({ data: { attributes: { kind: 'Uenicode', level: 'senior' } } });

      const updated = await gql(
        `mutation { updateProfile(id: ${id}, data: { kind: a_b }) { data { attributes { kind } } } }`,
      );
      expect(updated.data.updateProfile).to.deep.equal({ data: { attributes: { kind: 'a_b' } } });
      const rest = await api().get(`/api/profiles/${id}`);
      expect(rest.body.data.attributes.kind).to.equal('a/b');

      // filters compare stored values (Strapi's StringFilterInput for enumerations)
      const filtered = await gql('{ profiles(filters: { kind: { eq: "a/b" } }) { data { id } } }');
      expect(filtered.data.profiles).to.deep.equal({ data: [{ id: String(id) }] });
      // an enumeration's own `enumName`
      const own = await gql('{ __type(name: "ProfileLevel") { enumValues { name } } }');
      expect(own.data.__type).to.deep.equal({ enumValues: [{ name: 'junior' }, { name: 'senior' }] });
    });

    it('two values with one GraphQL name: the later one owns it, as in Strapi', async () => {
      const created = await api()
        .post('/api/profiles')
        .set(auth())
        .send({ data: { handle: 'skinner', clash: 'a b' } });
      expect(created.status).to.equal(200);
      const values = await gql('{ __type(name: "ENUM_PROFILE_CLASH") { enumValues { name } } }');
      expect(values.data.__type).to.deep.equal({ enumValues: [{ name: 'a_b' }, { name: 'other' }] });
      const set = await gql(
        `mutation { updateProfile(id: ${created.body.data.id}, data: { clash: a_b }) { data { attributes { clash } } } }`,
      );
      expect(set.data.updateProfile).to.deep.equal({ data: { attributes: { clash: 'a_b' } } });
      expect((await api().get(`/api/profiles/${created.body.data.id}`)).body.data.attributes.clash).to.equal('a_b');
    });
  });

  describe('attributes Strapi v4 has and this service stores as it does', () => {
    it('blocks: stored as JSON, node kinds checked; required media is not enforced (v4)', async () => {
      const bio = [
        { type: 'heading', level: 2, children: [{ type: 'text', text: 'About' }] },
        { type: 'paragraph', children: [{ type: 'text', text: 'Agent', bold: true }] },
      ];
      const created = await api()
        .post('/api/profiles')
        .set(auth())
        .send({ data: { handle: 'scully', bio, lastSeen: '2024-03-01T10:00:00.000Z' } });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body.data.attributes.bio).to.deep.equal(bio);
      expect(created.body.data.attributes.lastSeen).to.equal('2024-03-01T10:00:00.000Z');
      expect(created.body.data.attributes).to.not.have.property('secretNote');
      const bad = await api()
        .post('/api/profiles')
        .set(auth())
        .send({ data: { handle: 'bad', bio: [{ type: 'marquee', children: [] }] } });
      expect(bad.status).to.equal(400);
      expect(bad.body.error.details.errors[0].path).to.deep.equal(['bio', '0']);
      const notArray = await api()
        .post('/api/profiles')
        .set(auth())
        .send({ data: { handle: 'bad2', bio: 'text' } });
      expect(notArray.status).to.equal(400);
    });

    it('relations to plugin::upload.file, plugin::i18n.locale and admin::user load; admin users are never read or written', async () => {
      const created = await api()
        .post('/api/reviews?populate=*')
        .set(auth())
        .send({ data: { text: 'Good', stars: 5, author: userId, attachment: fileIds[0], editedBy: 1 } });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const attributes = created.body.data.attributes as Record<string, unknown>;
      expect((attributes.attachment as { data: { attributes: { name: string } } }).data.attributes.name).to.equal(
        'photo-1.png',
      );
      expect(attributes).to.not.have.property('editedBy');
      const stored = await service.context.connection.collection('reviews').findOne({ _id: created.body.data.id });
      expect(stored?.editedBy ?? null).to.equal(null);
    });
  });

  describe('a manyToMany declared inversedBy on both sides', () => {
    it('one side stores the links, both sides read and write them', async () => {
      const course = await api()
        .post('/api/courses')
        .set(auth())
        .send({ data: { title: 'Physics' } });
      const other = await api()
        .post('/api/courses')
        .set(auth())
        .send({ data: { title: 'Biology' } });
      const student = await api()
        .post('/api/students')
        .set(auth())
        .send({ data: { name: 'Fox', courses: [course.body.data.id] } });
      expect(student.status, JSON.stringify(student.body)).to.equal(200);
      const fromCourse = await api().get(`/api/courses/${course.body.data.id}?populate=students`);
      expect(fromCourse.body.data.attributes.students.data.map((s: { id: number }) => s.id)).to.deep.equal([
        student.body.data.id,
      ]);
      // writing the other side rewrites the stored one
      const linked = await api()
        .put(`/api/courses/${other.body.data.id}`)
        .set(auth())
        .send({ data: { students: { connect: [student.body.data.id] } } });
      expect(linked.status, JSON.stringify(linked.body)).to.equal(200);
      const fromStudent = await api().get(`/api/students/${student.body.data.id}?populate=courses`);
      expect(fromStudent.body.data.attributes.courses.data.map((c: { id: number }) => c.id)).to.deep.equal([
        course.body.data.id,
        other.body.data.id,
      ]);
      const { data } = await gql(
        `{ student(id: ${student.body.data.id}) { data { attributes { courses { data { attributes { title } } } } } } }`,
      );
      expect(data.student).to.deep.equal({
        data: {
          attributes: {
            courses: { data: [{ attributes: { title: 'Physics' } }, { attributes: { title: 'Biology' } }] },
          },
        },
      });
    });
  });

  describe('the users-permissions user extended by the app', () => {
    it('register takes the allowed extra fields only', async () => {
      const res = await api().post('/api/auth/local/register').send({
        username: 'walter',
        email: 'walter@example.com',
        password: 'Password123!',
        nickname: 'Skinman',
        avatar: 2,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.user).to.include({ nickname: 'Skinman' });
      const stored = await service.context.connection.collection('up_users').findOne({ _id: res.body.user.id });
      expect(stored?.avatar ?? null).to.equal(null);
    });

    it('PUT /api/users/:id writes extra scalars, media and relations through the write path', async () => {
      const res = await api()
        .put(`/api/users/${userId}`)
        .set(auth())
        .send({ fullName: 'Dana K. Scully', avatar: fileIds[1], role: 1, confirmed: false });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      // role and confirmed are written too, as Strapi 4.26's user update writes them
      expect(res.body).to.include({ fullName: 'Dana K. Scully', confirmed: false });
      const tooLong = await api()
        .put(`/api/users/${userId}`)
        .set(auth())
        .send({ fullName: 'x'.repeat(61) });
      expect(tooLong.status).to.equal(400);
      expect(tooLong.body.error.details.errors[0].path).to.deep.equal(['fullName']);
      const missing = await api().put(`/api/users/${userId}`).set(auth()).send({ avatar: 999 });
      expect(missing.status).to.equal(400);
    });

    it('/api/users/me and /api/users populate the extension relations and media, and the api type populates the user', async () => {
      const me = await api()
        .get('/api/users/me?populate[0]=profile&populate[1]=avatar&populate[2]=reviews')
        .set(auth());
      expect(me.status, JSON.stringify(me.body)).to.equal(200);
      expect(me.body).to.include({ username: 'dana', fullName: 'Dana K. Scully' });
      expect(me.body.profile).to.include({ handle: 'dana', color: '#00ff88' });
      expect(me.body.avatar).to.include({ id: 2, name: 'photo-2.png' });
      expect(me.body.reviews).to.have.length(1);
      expect(me.body).to.not.have.property('password');
      // the extension's own route, beside the plugin's (served as the extension left them)
      expect((await api().get('/api/users-hello').set(auth()).expect(200)).body).to.deep.equal({ hello: 'dana' });

      const list = await api().get('/api/users?filters[profile][handle][$eq]=dana&populate=profile').set(auth());
      expect(list.body.map((u: { username: string }) => u.username)).to.deep.equal(['dana']);
      expect(list.body[0].profile.handle).to.equal('dana');

      const profiles = await api().get('/api/profiles?filters[handle][$eq]=dana&populate=user').set(auth());
      expect(profiles.body.data[0].attributes.user.data.attributes).to.include({
        username: 'dana',
        fullName: 'Dana K. Scully',
      });

      const { data } = await gql(
        '{ me { username } usersPermissionsUser(id: 1) { data { attributes { fullName profile { data { attributes { handle } } } } } } }',
      );
      expect(data.usersPermissionsUser).to.deep.equal({
        data: { attributes: { fullName: 'Dana K. Scully', profile: { data: { attributes: { handle: 'dana' } } } } },
      });
    });
  });
});
