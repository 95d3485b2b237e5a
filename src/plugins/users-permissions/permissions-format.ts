import { ValidationError } from '../../errors/index.js';

/** Strapi v4's role permission tree: `{ 'api::article': { controllers: { article: { find: { enabled: true } } } } }`. */
export type PermissionTree = Record<
  string,
  { controllers: Record<string, Record<string, { enabled: boolean; policy: string }>> }
>;

const ACTION = /^(api|plugin|admin)::[\w-]+\.[\w-]+\.[\w-]+$/;

/** `type::name.controller.action` → its three parts (none when it is not an action). */
export function splitThree(action: string): [string, string, string] | [] {
  const m = /^(.+::[^.]+)\.([^.]+)\.([^.]+)$/.exec(action);
  return m ? [m[1] ?? '', m[2] ?? '', m[3] ?? ''] : [];
}

/** Strapi's tree, or a plain array of action strings → the enabled actions. */
export function fromPermissionInput(input: unknown): string[] {
  const actions: string[] = [];
  const bad = () =>
    ValidationError.forPath(
      ['permissions'],
      'permissions must be an array of actions or Strapi\'s { "<type>": { controllers: { ... } } } tree',
    );
  if (Array.isArray(input)) {
    for (const a of input) {
      if (typeof a !== 'string' || !ACTION.test(a)) throw bad();
      actions.push(a);
    }
    return actions;
  }
  if (!input || typeof input !== 'object') throw bad();
  for (const [type, entry] of Object.entries(input as Record<string, unknown>)) {
    const controllers = (entry as { controllers?: unknown } | null)?.controllers;
    if (!controllers || typeof controllers !== 'object') throw bad();
    for (const [controller, byAction] of Object.entries(controllers as Record<string, unknown>)) {
      if (!byAction || typeof byAction !== 'object') throw bad();
      for (const [name, value] of Object.entries(byAction as Record<string, unknown>)) {
        const action = `${type}.${controller}.${name}`;
        if (!ACTION.test(action)) throw bad();
        if ((value as { enabled?: unknown } | null)?.enabled === true) actions.push(action);
      }
    }
  }
  return actions;
}
