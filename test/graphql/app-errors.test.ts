import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { collectionTypeSchema, writeTempProject } from '../helpers/temp-app.js';
import { gql } from './helpers.js';

/**
 * Errors of the project's own `@strapi/utils` (installed beside it, so not the service's classes)
 * thrown by its GraphQL resolvers and policies, answered as Strapi 4.26's plugin-graphql formats
 * them (recorded on a Strapi 4.26.2 app with the same resolvers and policies): the error's name,
 * message and details, code FORBIDDEN for ForbiddenError, PolicyError and UnauthorizedError,
 * BAD_USER_INPUT for ValidationError, STRAPI_<NAME> for the others. A policy answering false is
 * `PolicyError: Policy Failed`. On REST the same policies answer Strapi's bare 403.
 */
const STRAPI_UTILS = `
class ApplicationError extends Error {
  constructor(message = 'An application error occured', details = {}) {
    super(message);
    this.name = 'ApplicationError';
    this.details = details;
  }
}
class ValidationError extends ApplicationError {
  constructor(message, details) { super(message, details); this.name = 'ValidationError'; }
}
class NotFoundError extends ApplicationError {
  constructor(message = 'Entity not found', details) { super(message, details); this.name = 'NotFoundError'; }
}
class ForbiddenError extends ApplicationError {
  constructor(message = 'Forbidden access', details) { super(message, details); this.name = 'ForbiddenError'; }
}
class UnauthorizedError extends ApplicationError {
  constructor(message = 'Unauthorized', details) { super(message, details); this.name = 'UnauthorizedError'; }
}
class PolicyError extends ForbiddenError {
  constructor(message = 'Policy Failed', details = {}) { super(message, details); this.name = 'PolicyError'; }
}
module.exports = { errors: { ApplicationError, ValidationError, NotFoundError, ForbiddenError, UnauthorizedError, PolicyError } };
`;

const PROJECT = {
  'package.json': JSON.stringify({
    name: 'graphql-app-errors',
    dependencies: { '@strapi/plugin-graphql': '4.26.2', '@strapi/utils': '4.26.2' },
  }),
  'node_modules/@strapi/utils/package.json': JSON.stringify({ name: '@strapi/utils', version: '4.26.2' }),
  'node_modules/@strapi/utils/index.js': STRAPI_UTILS,
  'config/permissions.json': JSON.stringify({ public: ['api::widget.widget.find', 'api::widget.widget.findOne'] }),
  'src/api/widget/content-types/widget/schema.json': JSON.stringify(
    collectionTypeSchema('widget', 'widgets', { label: { type: 'string' } }),
  ),
  'src/policies/deny-throw.js': `
const { errors } = require('@strapi/utils');
module.exports = () => { throw new errors.PolicyError('Custom denial', { reason: 'test' }); };`,
  'src/policies/deny-false.js': `module.exports = () => false;`,
  'src/api/widget/routes/custom.js': `module.exports = { routes: [
    { method: 'GET', path: '/denied/throw', handler: 'widget.find', config: { auth: false, policies: ['global::deny-throw'] } },
    { method: 'GET', path: '/denied/false', handler: 'widget.find', config: { auth: false, policies: ['global::deny-false'] } },
  ] };`,
  'src/index.js': `
const { errors } = require('@strapi/utils');
const details = { field: 'x' };
const make = {
  application: () => new errors.ApplicationError('App failed', details),
  validation: () => new errors.ValidationError('Bad value', details),
  notFound: () => new errors.NotFoundError('Nothing here', details),
  forbidden: () => new errors.ForbiddenError('No way', details),
  unauthorized: () => new errors.UnauthorizedError('Who are you', details),
  policy: () => new errors.PolicyError('Policy says no', details),
  bareForbidden: () => new errors.ForbiddenError(),
};
module.exports = {
  register({ strapi }) {
    strapi.plugin('graphql').service('extension').use(() => ({
      typeDefs: 'type Query { fail(kind: String!): Boolean }',
      resolvers: { Query: { fail: (parent, args) => { throw make[args.kind](); } } },
      resolversConfig: {
        'Query.fail': { auth: false },
        'Query.widgets': { policies: ['global::deny-throw'] },
        'Query.widget': { policies: ['global::deny-false'] },
      },
    }));
  },
};`,
};

describe("GraphQL: the project's @strapi/utils errors from resolvers and policies (Strapi 4.26)", () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(PROJECT) });
  });
  after(() => service.close());

  const failure = async (kind: string) =>
    (await gql(service, '{ fail(kind: $kind) }'.replace('$kind', `"${kind}"`))).body;
  const answered = (name: string, message: string, details: Record<string, unknown>, code: string) => ({
    errors: [{ message, extensions: { error: { name, message, details }, code } }],
    data: { fail: null },
  });

  it('answers each error class with its name, message, details and Strapi’s code', async () => {
    const x = { field: 'x' };
    expect(await failure('application')).to.deep.equal(
      answered('ApplicationError', 'App failed', x, 'STRAPI_APPLICATION_ERROR'),
    );
    expect(await failure('validation')).to.deep.equal(answered('ValidationError', 'Bad value', x, 'BAD_USER_INPUT'));
    expect(await failure('notFound')).to.deep.equal(
      answered('NotFoundError', 'Nothing here', x, 'STRAPI_NOT_FOUND_ERROR'),
    );
    expect(await failure('forbidden')).to.deep.equal(answered('ForbiddenError', 'No way', x, 'FORBIDDEN'));
    expect(await failure('unauthorized')).to.deep.equal(answered('UnauthorizedError', 'Who are you', x, 'FORBIDDEN'));
    expect(await failure('policy')).to.deep.equal(answered('PolicyError', 'Policy says no', x, 'FORBIDDEN'));
    expect(await failure('bareForbidden')).to.deep.equal(
      answered('ForbiddenError', 'Forbidden access', {}, 'FORBIDDEN'),
    );
  });

  it("forwards a policy's thrown PolicyError, and answers a policy's false as PolicyError 'Policy Failed'", async () => {
    expect((await gql(service, '{ widgets { data { id } } }')).body).to.deep.equal({
      errors: [
        {
          message: 'Custom denial',
          extensions: {
            error: { name: 'PolicyError', message: 'Custom denial', details: { reason: 'test' } },
            code: 'FORBIDDEN',
          },
        },
      ],
      data: { widgets: null },
    });
    expect((await gql(service, '{ widget(id: 1) { data { id } } }')).body).to.deep.equal({
      errors: [
        {
          message: 'Policy Failed',
          extensions: { error: { name: 'PolicyError', message: 'Policy Failed', details: {} }, code: 'FORBIDDEN' },
        },
      ],
      data: { widget: null },
    });
  });

  it("answers the same policies on REST with Strapi's bare 403, whatever the policy's message", async () => {
    const bare = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };
    expect((await request(service.app).get('/api/denied/throw').expect(403)).body).to.deep.equal(bare);
    expect((await request(service.app).get('/api/denied/false').expect(403)).body).to.deep.equal(bare);
  });
});
