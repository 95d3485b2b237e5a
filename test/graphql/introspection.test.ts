import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';

/**
 * graphql 15's getIntrospectionQuery({ descriptions, specifiedByUrl, directiveIsRepeatable,
 * schemaDescription, inputValueDeprecation }), word for word: what graphql-codegen and Apollo's
 * tooling on graphql 15 send. Strapi 4.26 (graphql 15) answers it; graphql 16 renamed the field.
 */
const GRAPHQL_15_INTROSPECTION = `
    query IntrospectionQuery {
      __schema {
        description
        queryType { name }
        mutationType { name }
        subscriptionType { name }
        types {
          ...FullType
        }
        directives {
          name
          description
          isRepeatable
          locations
          args(includeDeprecated: true) {
            ...InputValue
          }
        }
      }
    }

    fragment FullType on __Type {
      kind
      name
      description
      specifiedByUrl
      fields(includeDeprecated: true) {
        name
        description
        args(includeDeprecated: true) {
          ...InputValue
        }
        type {
          ...TypeRef
        }
        isDeprecated
        deprecationReason
      }
      inputFields(includeDeprecated: true) {
        ...InputValue
      }
      interfaces {
        ...TypeRef
      }
      enumValues(includeDeprecated: true) {
        name
        description
        isDeprecated
        deprecationReason
      }
      possibleTypes {
        ...TypeRef
      }
    }

    fragment InputValue on __InputValue {
      name
      description
      type { ...TypeRef }
      defaultValue
      isDeprecated
      deprecationReason
    }

    fragment TypeRef on __Type {
      kind
      name
      ofType {
        kind
        name
        ofType {
          kind
          name
          ofType {
            kind
            name
            ofType {
              kind
              name
              ofType {
                kind
                name
                ofType {
                  kind
                  name
                  ofType {
                    kind
                    name
                  }
                }
              }
            }
          }
        }
      }
    }
  `;

/** graphql 16's getIntrospectionQuery({ specifiedByUrl: true }): Strapi 4.26 refuses it. */
const GRAPHQL_16_SPECIFIED_BY = `
    query IntrospectionQuery {
      __schema {
        
        queryType { name kind }
        mutationType { name kind }
        subscriptionType { name kind }
        types {
          ...FullType
        }
        directives {
          name
          description
          
          
          
          locations
          args {
            ...InputValue
          }
        }
      }
    }

    fragment FullType on __Type {
      kind
      name
      description
      specifiedByURL
      
      fields(includeDeprecated: true) {
        name
        description
        args {
          ...InputValue
        }
        type {
          ...TypeRef
        }
        isDeprecated
        deprecationReason
      }
      inputFields {
        ...InputValue
      }
      interfaces {
        ...TypeRef
      }
      enumValues(includeDeprecated: true) {
        name
        description
        isDeprecated
        deprecationReason
      }
      possibleTypes {
        ...TypeRef
      }
    }

    fragment InputValue on __InputValue {
      name
      description
      type { ...TypeRef }
      defaultValue
      
      
    }

    fragment TypeRef on __Type {
      kind
      name
      ofType {
        name
        kind
        ofType {
          name
          kind
          ofType {
            name
            kind
            ofType {
              name
              kind
              ofType {
                name
                kind
                ofType {
                  name
                  kind
                  ofType {
                    name
                    kind
                    ofType {
                      name
                      kind
                      ofType {
                        name
                        kind
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  `;

interface NamedType {
  name: string;
  specifiedByUrl: string | null;
  fields: Array<{ name: string; args: Array<{ name: string }> }> | null;
  enumValues: Array<{ name: string }> | null;
}
interface Directive {
  name: string;
  description: string;
  locations: string[];
  args: Array<{ name: string; description: string }>;
}

describe('GraphQL introspection as graphql 15 (Strapi 4.26) answers it', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
  });
  after(() => service.close());

  const introspect = (query: string) =>
    request(service.app).post('/graphql').send({ operationName: 'IntrospectionQuery', query, variables: {} });

  it("answers graphql 15's full introspection query with graphql 15's meta-types and directives", async () => {
    const res = await introspect(GRAPHQL_15_INTROSPECTION);
    expect(res.status, JSON.stringify(res.body.errors)).to.equal(200);
    const schema = res.body.data.__schema as { types: NamedType[]; directives: Directive[] };
    const type = (name: string) => schema.types.find((t) => t.name === name);
    const names = (list: Array<{ name: string }> | null | undefined) => (list ?? []).map((item) => item.name);
    expect(names(type('__Type')?.fields)).to.deep.equal([
      'kind',
      'name',
      'description',
      'specifiedByUrl',
      'fields',
      'interfaces',
      'possibleTypes',
      'enumValues',
      'inputFields',
      'ofType',
    ]);
    expect(names(type('__Directive')?.fields)).to.deep.equal([
      'name',
      'description',
      'isRepeatable',
      'locations',
      'args',
    ]);
    expect(type('__Schema')?.fields?.find((f) => f.name === 'directives')?.args).to.deep.equal([]);
    expect(names(type('__DirectiveLocation')?.enumValues)).to.not.include('DIRECTIVE_DEFINITION');
    expect(type('JSON')?.specifiedByUrl).to.equal(
      'http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf',
    );
    expect(type('String')?.specifiedByUrl).to.equal(null);
    expect(names(schema.directives)).to.deep.equal(['include', 'skip', 'deprecated', 'specifiedBy']);
    const deprecated = schema.directives.find((d) => d.name === 'deprecated');
    expect(deprecated?.locations).to.deep.equal([
      'FIELD_DEFINITION',
      'ARGUMENT_DEFINITION',
      'INPUT_FIELD_DEFINITION',
      'ENUM_VALUE',
    ]);
    const specifiedBy = schema.directives.find((d) => d.name === 'specifiedBy');
    expect(specifiedBy?.description).to.equal('Exposes a URL that specifies the behaviour of this scalar.');
    expect(specifiedBy?.args.map((a) => a.description)).to.deep.equal([
      'The URL that specifies the behaviour of this scalar.',
    ]);
  });

  it("refuses graphql 16's specifiedByURL as Strapi does, and still answers graphql 16's default query", async () => {
    const res = await introspect(GRAPHQL_16_SPECIFIED_BY);
    expect(res.status).to.equal(400);
    expect(res.body.errors[0]).to.deep.include({
      message: 'Cannot query field "specifiedByURL" on type "__Type". Did you mean "specifiedByUrl"?',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    const plain = await introspect(GRAPHQL_16_SPECIFIED_BY.replace('specifiedByURL', ''));
    expect(plain.status, JSON.stringify(plain.body.errors)).to.equal(200);
  });

  it("still runs @include/@skip and resolves a scalar's specifiedByUrl", async () => {
    const res = await request(service.app)
      .post('/graphql')
      .send({
        query:
          'query ($on: Boolean!) { __type(name: "JSON") { name @include(if: $on) specifiedByUrl @skip(if: $on) } }',
        variables: { on: true },
      });
    expect(res.body).to.deep.equal({ data: { __type: { name: 'JSON' } } });
  });
});
