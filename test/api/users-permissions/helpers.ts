import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Express } from 'express';
import { expect } from 'chai';

export const USERS = [
  { username: 'alice', email: 'alice@users.example.com', password: 'Password123!' },
  { username: 'bob', email: 'bob@users.example.com', password: 'Password123!' },
  { username: 'Carol_X', email: 'carol@users.example.com', password: 'Secret%&*456' },
] as const;

/** Registers the conformance seed users (ids 1..3) through the public route, as seed.mjs does. */
export async function registerSeedUsers(app: Express): Promise<void> {
  for (const user of USERS) {
    const res = await request(app).post('/api/auth/local/register').send(user);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }
}

export async function login(app: Express, identifier: string, password: string): Promise<string> {
  const res = await request(app).post('/api/auth/local').send({ identifier, password });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.jwt as string;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/**
 * A small app whose `post` content-type points at users (`owner`) and at an author-like type
 * (`writer`), for the permission and private-field rules on relations to users.
 */
export async function postsApp(permissions: Record<string, string[]>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cs-up-'));
  await mkdir(join(dir, 'schemas', 'api'), { recursive: true });
  await mkdir(join(dir, 'config'), { recursive: true });
  const post = {
    kind: 'collectionType',
    collectionName: 'posts',
    info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' },
      owner: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' },
      writer: { type: 'relation', relation: 'manyToOne', target: 'api::writer.writer' },
    },
  };
  const writer = {
    kind: 'collectionType',
    collectionName: 'writers',
    info: { singularName: 'writer', pluralName: 'writers', displayName: 'Writer' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, pin: { type: 'password' }, notes: { type: 'string', private: true } },
  };
  await writeFile(join(dir, 'schemas', 'api', 'post.json'), JSON.stringify(post));
  await writeFile(join(dir, 'schemas', 'api', 'writer.json'), JSON.stringify(writer));
  await writeFile(join(dir, 'config', 'permissions.json'), JSON.stringify(permissions));
  await writeFile(
    join(dir, 'config', 'plugins.json'),
    JSON.stringify({ 'users-permissions': { config: { ratelimit: { enabled: false } } } }),
  );
  return dir;
}
