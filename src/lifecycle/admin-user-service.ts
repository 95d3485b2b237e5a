/**
 * `strapi.service('admin::user')` of Strapi v4 as projects call it to seed their admin accounts
 * from bootstrap (`exists`, `create`, `sanitizeUser`, `findOne`, `update`, `count`, `deleteById`),
 * on this service's `admin::user` collection through the query engine: the password hashed here
 * (bcrypt, 10 rounds, as Strapi's admin `auth.hashPassword`; the query engine stores what it is
 * given), the e-mail lower-cased as Strapi's admin stores it. There is no admin panel here and
 * no admin roles: a `roles` given is left out.
 */
import bcrypt from 'bcryptjs';
import type { PlainEntry } from '../query/index.js';
import type { QueryEngine } from './query-engine.js';

const ADMIN_USER = 'admin::user';
/** what Strapi's `sanitizeUser` leaves out */
const SECRET = new Set(['password', 'resetPasswordToken', 'registrationToken', 'roles']);

type Values = Record<string, unknown>;

export interface AdminUserService {
  exists(attributes?: Values): Promise<boolean>;
  create(attributes: Values): Promise<PlainEntry | null>;
  findOne(id: number | string, populate?: unknown): Promise<PlainEntry | null>;
  findOneByEmail(email: string): Promise<PlainEntry | null>;
  update(id: number | string, attributes: Values): Promise<PlainEntry | null>;
  count(where?: Values): Promise<number>;
  deleteById(id: number | string): Promise<PlainEntry | null>;
  sanitizeUser(user: PlainEntry | null | undefined): Values | null | undefined;
}

function stored(attributes: Values): Values {
  const { roles: _roles, ...values } = attributes;
  return typeof values.email === 'string' ? { ...values, email: values.email.toLowerCase() } : values;
}

/** What a create or update writes: `stored`, with a given password hashed. */
async function written(attributes: Values): Promise<Values> {
  const values = stored(attributes);
  return typeof values.password === 'string' ? { ...values, password: await bcrypt.hash(values.password, 10) } : values;
}

export function createAdminUserService(query: (uid: string) => QueryEngine): AdminUserService {
  const users = () => query(ADMIN_USER);
  return {
    exists: async (attributes = {}) => (await users().count({ where: stored(attributes) })) > 0,
    create: async (attributes) =>
      users().create({ data: { isActive: false, blocked: false, ...(await written(attributes)) } }),
    findOne: (id) => users().findOne({ where: { id } }),
    findOneByEmail: (email) => users().findOne({ where: { email: { $eqi: email } } }),
    update: async (id, attributes) => users().update({ where: { id }, data: await written(attributes) }),
    count: (where = {}) => users().count({ where }),
    deleteById: (id) => users().delete({ where: { id } }),
    sanitizeUser: (user) =>
      user ? Object.fromEntries(Object.entries(user).filter(([key]) => !SECRET.has(key))) : user,
  };
}
