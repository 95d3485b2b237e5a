/**
 * Strapi's JSON config templates: a string value holding `${...}` (without parentheses, so no
 * calls) is evaluated as a JavaScript template literal, e.g. `"${process.env.HOST}"`. Plain
 * objects are walked; arrays and other values are kept as they are. The app's config files are
 * its own code (a `.js` config runs anything), so evaluating them trusts nothing new.
 */
const TEMPLATE = /\$\{[^()]*\}/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}

function evaluate(template: string): string {
  const render = new Function('process', `return \`${template}\`;`) as (p: NodeJS.Process) => unknown;
  return String(render(process));
}

export function templateConfiguration(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (isPlainObject(item)) out[key] = templateConfiguration(item);
    else if (typeof item === 'string' && TEMPLATE.test(item)) out[key] = evaluate(item);
    else out[key] = item;
  }
  return out;
}
