import { ALLOW_ALL, type Ability } from './ability.js';

/** An ability granting exactly the listed actions (a role's permissions, a custom API token). */
export function abilityFromActions(actions: Iterable<string>): Ability {
  const allowed = new Set(actions);
  return { can: (action) => allowed.has(action) };
}

/** Read-only API tokens: `find` and `findOne` of every content-type (Strapi v4). */
export const READ_ONLY: Ability = {
  can: (action) => action.endsWith('.find') || action.endsWith('.findOne'),
};

export type ApiTokenType = 'read-only' | 'full-access' | 'custom';
export const API_TOKEN_TYPES: readonly ApiTokenType[] = ['read-only', 'full-access', 'custom'];

export function isApiTokenType(value: unknown): value is ApiTokenType {
  return typeof value === 'string' && (API_TOKEN_TYPES as readonly string[]).includes(value);
}

/** What an API token of this type may do. */
export function apiTokenAbility(type: ApiTokenType, actions: readonly string[]): Ability {
  switch (type) {
    case 'full-access':
      return ALLOW_ALL;
    case 'read-only':
      return READ_ONLY;
    case 'custom':
      return abilityFromActions(actions);
  }
}
