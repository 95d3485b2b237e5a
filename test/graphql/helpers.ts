import request from 'supertest';
import type { ContentService } from '../../src/app.js';

export interface GraphQLAnswer {
  status: number;
  body: {
    data?: Record<string, unknown> | null;
    errors?: Array<{ message: string; extensions?: Record<string, unknown>; locations?: unknown }>;
  };
}

/** POST /graphql with `{ query, variables }` (and a bearer token when given). */
export async function gql(
  service: ContentService,
  query: string,
  variables?: Record<string, unknown>,
  jwt?: string,
): Promise<GraphQLAnswer> {
  const req = request(service.app).post('/graphql').set('Accept', 'application/json');
  if (jwt) req.set('Authorization', `Bearer ${jwt}`);
  const res = await req.send({ query, ...(variables ? { variables } : {}) });
  return { status: res.status, body: res.body as GraphQLAnswer['body'] };
}

/** Registers a user through the GraphQL `register` mutation; its JWT (Authenticated role). */
export async function registerUser(service: ContentService, name: string): Promise<string> {
  const res = await gql(
    service,
    `mutation($u: String!, $e: String!) { register(input: { username: $u, email: $e, password: "Password123!" }) { jwt user { id } } }`,
    { u: name, e: `${name}@example.org` },
  );
  const jwt = (res.body.data?.register as { jwt?: string } | undefined)?.jwt;
  if (!jwt) throw new Error(`register failed: ${JSON.stringify(res.body)}`);
  return jwt;
}

/** `data.a.b.c` of an answer. */
export function at(body: GraphQLAnswer['body'], path: string): unknown {
  let value: unknown = body;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
