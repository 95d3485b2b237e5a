// Attribute names that are no identifiers (met in Dipaky28/cssoch-strapi-v4: "Curriculum Name",
// "Game Set Name"). Strapi v4 loads any name (its SQL columns are quoted) and serves it over REST;
// graphql-js refuses the schema its GraphQL plugin builds with one. Here REST serves them as Strapi does and
// GraphQL leaves them out, with one warning, so the rest of the schema is still served.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { capturingLogger, WARN } from '../helpers/log-capture.js';
import { writeTempProject } from '../helpers/temp-app.js';

const json = (value: unknown) => JSON.stringify(value, null, 2);

const CURRICULUM = {
  kind: 'collectionType',
  collectionName: 'curricula',
  info: { singularName: 'curriculum', pluralName: 'curricula', displayName: 'Curriculum' },
  options: { draftAndPublish: false },
  attributes: {
    'Curriculum Name': { type: 'string', required: true },
    'sub-title': { type: 'string' },
    'Game Type': { type: 'enumeration', enum: ['Quiz', 'Puzzle'] },
    code: { type: 'string' },
    'Assigned Module': { type: 'component', repeatable: false, component: 'over-view.group-grades' },
    'Related Modules': { type: 'relation', relation: 'oneToMany', target: 'api::module.module' },
  },
};
const MODULE = {
  kind: 'collectionType',
  collectionName: 'modules',
  info: { singularName: 'module', pluralName: 'modules', displayName: 'Module' },
  options: { draftAndPublish: false },
  attributes: { 'Module Name': { type: 'string' } },
};
const GROUP_GRADES = {
  collectionName: 'components_over_view_group_grades',
  info: { displayName: 'Group Grades' },
  attributes: { 'Grade Name': { type: 'string' }, level: { type: 'integer' } },
};
const ACTIONS = ['find', 'findOne', 'create', 'update'];
const PERMISSIONS = {
  public: [
    ...ACTIONS.map((action) => `api::curriculum.curriculum.${action}`),
    ...ACTIONS.map((action) => `api::module.module.${action}`),
  ],
};

describe('attribute names with spaces and dashes', () => {
  let service: TestService;
  let warnings: string[];
  const api = () => request(service.app);
  const names = (body: { data: Array<{ attributes: Record<string, unknown> }> }) =>
    body.data.map((entry) => entry.attributes['Curriculum Name']);

  before(async () => {
    const appDir = await writeTempProject({
      'src/api/curriculum/content-types/curriculum/schema.json': json(CURRICULUM),
      'src/api/module/content-types/module/schema.json': json(MODULE),
      'src/components/over-view/group-grades.json': json(GROUP_GRADES),
      'config/permissions.json': json(PERMISSIONS),
    });
    const logs = capturingLogger();
    service = await createTestService({ appDir, logger: logs.logger });
    warnings = logs.lines.filter((line) => line.level === WARN).map((line) => String(line.msg));
    const module = await api()
      .post('/api/modules')
      .send({ data: { 'Module Name': 'Shapes' } })
      .expect(200);
    for (const [name, type] of [
      ['Grade 2', 'Puzzle'],
      ['Grade 1', 'Quiz'],
    ]) {
      await api()
        .post('/api/curricula')
        .send({
          data: {
            'Curriculum Name': name,
            'sub-title': `${name} sub`,
            'Game Type': type,
            'Assigned Module': { 'Grade Name': name, level: 1 },
            'Related Modules': [module.body.data.id],
          },
        })
        .expect(200);
    }
  });
  after(() => service.close());

  it('writes and answers them under their names over REST', async () => {
    const read = await api().get('/api/curricula/1?populate=*').expect(200);
    expect(read.body.data.attributes).to.deep.include({
      'Curriculum Name': 'Grade 2',
      'sub-title': 'Grade 2 sub',
      'Game Type': 'Puzzle',
    });
    expect(read.body.data.attributes['Assigned Module']).to.deep.include({ 'Grade Name': 'Grade 2', level: 1 });
    expect(read.body.data.attributes['Related Modules'].data[0].attributes['Module Name']).to.equal('Shapes');
    const updated = await api()
      .put('/api/curricula/1')
      .send({ data: { 'Curriculum Name': 'Grade 3' } })
      .expect(200);
    expect(updated.body.data.attributes['Curriculum Name']).to.equal('Grade 3');
    const missing = await api()
      .post('/api/curricula')
      .send({ data: { code: 'x' } })
      .expect(400);
    expect(missing.body.error.details.errors[0].path).to.deep.equal(['Curriculum Name']);
  });

  it('filters, sorts, selects and populates them by name', async () => {
    expect(names((await api().get('/api/curricula?sort=Curriculum Name:asc').expect(200)).body)).to.deep.equal([
      'Grade 1',
      'Grade 3',
    ]);
    expect(names((await api().get('/api/curricula?filters[Game Type][$eq]=Quiz').expect(200)).body)).to.deep.equal([
      'Grade 1',
    ]);
    const selected = await api()
      .get('/api/curricula?fields[0]=Curriculum Name&fields[1]= sub-title&sort=id')
      .expect(200);
    expect(selected.body.data[0].attributes).to.deep.equal({
      'Curriculum Name': 'Grade 3',
      'sub-title': 'Grade 2 sub',
    });
    const populated = await api()
      .get(
        '/api/curricula?populate[Related Modules][fields][0]=Module Name&filters[Related Modules][Module Name][$eq]=Shapes',
      )
      .expect(200);
    expect(populated.body.data).to.have.length(2);
    expect(populated.body.data[0].attributes['Related Modules'].data[0].attributes).to.deep.equal({
      'Module Name': 'Shapes',
    });
  });

  it('leaves them out of GraphQL, with one warning per schema; the rest is served', async () => {
    const unnamed = warnings.filter((line) => line.includes('GraphQL name'));
    expect(unnamed).to.have.length(3);
    expect(unnamed[0]).to.match(
      /curriculum\/schema\.json: "Curriculum Name", "sub-title", "Game Type", "Assigned Module", "Related Modules" are not GraphQL names; GraphQL leaves them out \(REST serves them\); rename to letters, digits and "_" to have them in GraphQL$/,
    );
    expect(unnamed[1]).to.match(
      /module\/schema\.json: "Module Name" is not a GraphQL name; GraphQL leaves it out \(REST serves it\)/,
    );
    expect(unnamed[2]).to.match(/over-view\/group-grades\.json: "Grade Name" is not a GraphQL name/);
    const res = await api()
      .post('/graphql')
      .send({
        query: '{ curricula(sort: "code", filters: { code: { null: true } }) { data { id attributes { code } } } }',
      })
      .expect(200);
    expect(res.body).to.deep.equal({
      data: {
        curricula: {
          data: [
            { id: '1', attributes: { code: null } },
            { id: '2', attributes: { code: null } },
          ],
        },
      },
    });
    // a type left with nothing to write has no create or update mutation (no empty input in GraphQL)
    const mutations = await api()
      .post('/graphql')
      .send({ query: '{ __type(name: "Mutation") { fields { name } } }' })
      .expect(200);
    const names = mutations.body.data.__type.fields.map((field: { name: string }) => field.name);
    expect(names).to.include.members(['createCurriculum', 'updateCurriculum', 'deleteModule']);
    expect(names).not.to.include.members(['createModule']);
    expect(names).not.to.include.members(['updateModule']);
  });

  it('still refuses a name MongoDB cannot store, naming the file and the attribute', async () => {
    const appDir = await writeTempProject({
      'src/api/module/content-types/module/schema.json': json({ ...MODULE, attributes: { 'a.b': { type: 'string' } } }),
    });
    let failure: unknown;
    try {
      await (await createTestService({ appDir })).close();
    } catch (err) {
      failure = err;
    }
    expect(String(failure)).to.match(/module\/schema\.json \(attribute "a\.b"\): invalid attribute name/);
  });
});
