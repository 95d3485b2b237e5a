// How real Strapi v4 schemas are read: custom fields, extensions, relations declared loosely,
// and the GraphQL names Strapi gives enumeration values.
import { expect } from 'chai';
import {
  applyExtensions,
  Registry,
  SchemaError,
  type ContentTypeSchema,
  type ContentTypeSource,
  type SchemaNotice,
} from '../../src/content-types/index.js';
import { enumMembers, regressedEnumValue } from '../../src/plugins/graphql/enum-values.js';

function type(singular: string, attributes: ContentTypeSchema['attributes']): ContentTypeSource {
  return {
    uid: `api::${singular}.${singular}`,
    source: `src/api/${singular}/content-types/${singular}/schema.json`,
    schema: {
      kind: 'collectionType',
      collectionName: `${singular}s`,
      info: { singularName: singular, pluralName: `${singular}s`, displayName: singular },
      attributes,
    },
  };
}

describe('GraphQL enumeration names (Strapi v4 toRegressedEnumValue)', () => {
  it('slugifies with "_" separators, keeping case and transliterating', () => {
    const cases: Array<[string, string]> = [
      ['Full Time', 'Full_Time'],
      ['part-time', 'part_time'],
      ['a/b', 'a_b'],
      ['Ünïcode ', 'Uenicode'],
      ['ÄÖÜ ß', 'AeOeUe_ss'],
      ['Remote  ', 'Remote'],
      ['camelCase', 'camelCase'],
      ['x--y', 'x_y'],
      ['C++ & C#', 'C_and_C'],
    ];
    for (const [value, name] of cases) expect(regressedEnumValue(value), value).to.equal(name);
  });

  it('collects values into one map: on a collision the later value wins', () => {
    expect(enumMembers(['a b', 'a_b', 'other']).members).to.deep.equal({ a_b: 'a_b', other: 'other' });
    expect(enumMembers(['a_b', 'a b']).members).to.deep.equal({ a_b: 'a b' });
  });

  it('names what Strapi cannot (leading digit, nothing left) and says so', () => {
    const { members, renamed } = enumMembers(['1st', 'ok', '日本語']);
    expect(members).to.deep.equal({ _1st: '1st', ok: 'ok', _2: '日本語' });
    expect(renamed).to.deep.equal([
      { value: '1st', name: '_1st' },
      { value: '日本語', name: '_2' },
    ]);
  });
});

describe('custom fields', () => {
  it('a known plugin, the app mapping, and an unknown one (JSON, one warning)', () => {
    const registry = Registry.build(
      [
        type('page', {
          color: { type: 'customField', customField: 'plugin::color-picker.color', options: { format: 'hex' } },
          body: { type: 'customField', customField: 'plugin::ckeditor5.CKEditor', required: true },
          stars: { type: 'customField', customField: 'global::stars', min: 1 },
          widget: { type: 'customField', customField: 'plugin::nobody-knows.widget' },
        }),
      ],
      [],
      { i18n: false, customFields: { 'global::stars': 'integer' } },
    );
    const attrs = registry.contentType('api::page.page')?.attributes ?? {};
    expect(attrs.color).to.deep.equal({
      type: 'string',
      customField: 'plugin::color-picker.color',
      options: { format: 'hex' },
    });
    expect(attrs.body).to.include({ type: 'richtext', required: true });
    expect(attrs.stars).to.include({ type: 'integer', min: 1 });
    expect(attrs.widget).to.include({ type: 'json' });
    expect(registry.notices).to.have.length(1);
    expect(registry.notices[0]?.level).to.equal('warn');
    expect(registry.notices[0]?.message).to.match(
      /attribute "widget".*plugin::nobody-knows\.widget.*config\/custom-fields/,
    );
  });

  it('a custom field registered as an enumeration needs its values', () => {
    expect(() =>
      Registry.build([type('page', { pick: { type: 'customField', customField: 'global::pick' } })], [], {
        i18n: false,
        customFields: { 'global::pick': 'enumeration' },
      }),
    ).to.throw(SchemaError, /"pick".*enum.*custom field global::pick/);
  });

  it('a customField without its uid names the fix', () => {
    expect(() => Registry.build([type('page', { x: { type: 'customField' } as never })], [], { i18n: false })).to.throw(
      SchemaError,
      /"x".*"customField": "plugin::<plugin>\.<name>"/,
    );
  });
});

describe('relations as real schemas declare them', () => {
  const course = (attrs: ContentTypeSchema['attributes']) => type('course', attrs);
  const student = (attrs: ContentTypeSchema['attributes']) => type('student', attrs);

  it('manyToMany inversedBy on both sides: the later type owns, the other becomes its mappedBy side', () => {
    const registry = Registry.build(
      [
        course({
          students: { type: 'relation', relation: 'manyToMany', target: 'api::student.student', inversedBy: 'courses' },
        }),
        student({
          courses: { type: 'relation', relation: 'manyToMany', target: 'api::course.course', inversedBy: 'students' },
        }),
      ],
      [],
      { i18n: false },
    );
    expect(registry.relation('api::student.student', 'courses')).to.deep.include({ stored: true, multiple: true });
    expect(registry.relation('api::course.course', 'students')).to.deep.include({
      stored: false,
      inverse: { field: 'courses', multiple: true },
    });
    expect(registry.notices.map((n) => n.message).join()).to.include('api::student.student.courses stores the links');
  });

  it('oneToMany inversedBy on both sides stops start-up naming the fix, as Strapi refuses it', () => {
    expect(() =>
      Registry.build(
        [
          course({
            students: { type: 'relation', relation: 'oneToMany', target: 'api::student.student', inversedBy: 'course' },
          }),
          student({
            course: { type: 'relation', relation: 'manyToOne', target: 'api::course.course', inversedBy: 'students' },
          }),
        ],
        [],
        { i18n: false },
      ),
    ).to.throw(SchemaError, /replace "inversedBy" with "mappedBy"/);
  });

  it('an owner whose inverse maps another attribute is one-way; a mappedBy no owner names is left out', () => {
    const registry = Registry.build(
      [
        course({
          picked: { type: 'relation', relation: 'manyToMany', target: 'api::student.student', inversedBy: 'courses' },
          banned: { type: 'relation', relation: 'manyToMany', target: 'api::student.student', inversedBy: 'courses' },
          ghosts: { type: 'relation', relation: 'oneToMany', target: 'api::student.student', mappedBy: 'nothing' },
        }),
        student({
          courses: { type: 'relation', relation: 'manyToMany', target: 'api::course.course', mappedBy: 'banned' },
        }),
      ],
      [],
      { i18n: false },
    );
    const ct = registry.contentType('api::course.course');
    expect(registry.relation('api::course.course', 'picked')).to.deep.equal({
      attribute: 'picked',
      target: 'api::student.student',
      multiple: true,
      stored: true,
    });
    expect(ct?.attributes.picked).to.not.have.property('inversedBy');
    expect(registry.relation('api::student.student', 'courses')).to.deep.include({
      inverse: { field: 'banned', multiple: true },
    });
    expect(ct?.attributes).to.not.have.property('ghosts');
    expect(registry.notices.filter((n) => n.level === 'warn').map((n) => n.message)).to.have.length(1);
  });

  it('an owner whose inverse was left out (its mappedBy names another type) is one-way, whatever the order', () => {
    // shelf.boxes maps "shelf" of crate (not of box): read first, it is left out; box.shelf still starts
    const shelf = type('shelf', {
      crates: { type: 'relation', relation: 'oneToMany', target: 'api::crate.crate', mappedBy: 'shelf' },
      boxes: { type: 'relation', relation: 'oneToMany', target: 'api::crate.crate', mappedBy: 'shelf' },
    });
    const crate = type('crate', {
      shelf: { type: 'relation', relation: 'manyToOne', target: 'api::shelf.shelf', inversedBy: 'crates' },
    });
    const box = type('box', {
      shelf: { type: 'relation', relation: 'manyToOne', target: 'api::shelf.shelf', inversedBy: 'boxes' },
    });
    const registry = Registry.build([shelf, crate, box], [], { i18n: false });
    expect(registry.relation('api::box.box', 'shelf')).to.deep.equal({
      attribute: 'shelf',
      target: 'api::shelf.shelf',
      multiple: false,
      stored: true,
    });
    expect(registry.contentType('api::shelf.shelf')?.attributes).to.not.have.property('boxes');
    expect(registry.relation('api::shelf.shelf', 'crates')).to.deep.include({
      inverse: { field: 'shelf', multiple: false },
    });
  });

  it('a uid whose targetField no longer exists loads (Strapi only uses it in the admin panel)', () => {
    const registry = Registry.build([type('page', { slug: { type: 'uid', targetField: 'gone' } })], [], {
      i18n: false,
    });
    expect(registry.attribute('api::page.page', 'slug')).to.include({ type: 'uid' });
  });
});

describe('src/extensions over a plugin content-type', () => {
  const plugin: ContentTypeSource = {
    uid: 'plugin::users-permissions.user',
    namespace: 'plugin',
    source: 'built in',
    schema: {
      kind: 'collectionType',
      collectionName: 'up_users',
      info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
      attributes: { username: { type: 'string' }, email: { type: 'email' }, provider: { type: 'string' } },
    },
  };

  it('replaces top-level keys as Strapi v4 does, keeping the plugin attributes it leaves out', () => {
    const notices: SchemaNotice[] = [];
    const [extended] = applyExtensions(
      [plugin],
      [
        {
          plugin: 'users-permissions',
          name: 'user',
          source: 'src/extensions/users-permissions/content-types/user/schema.json',
          schema: {
            attributes: {
              username: { type: 'string', minLength: 5 },
              email: { type: 'email' },
              age: { type: 'integer' },
            },
          },
        },
        { plugin: 'upload', name: 'folder', source: 'ext/upload/folder.json', schema: {} },
      ],
      notices,
    );
    expect(Object.keys(extended?.schema.attributes ?? {})).to.deep.equal(['username', 'email', 'age', 'provider']);
    expect(extended?.schema.attributes.username).to.include({ minLength: 5 });
    expect(extended?.schema.collectionName).to.equal('up_users');
    expect(extended?.source).to.equal('src/extensions/users-permissions/content-types/user/schema.json');
    expect(notices.map((n) => n.message)).to.deep.equal([
      "src/extensions/users-permissions/content-types/user/schema.json: keeps the plugin's attributes it leaves out (provider), which users-permissions needs",
      'ext/upload/folder.json: ignored, plugin::upload.folder is not a content-type of an enabled plugin here',
    ]);
  });
});
