// The order of the issues of a list of components (a repeatable component, a dynamic zone) as
// Strapi v4's validator reports them. yup (abortEarly: false) validates the items of an array
// concurrently and reports each item's issues when the whole item is done, so an item that needs
// fewer asynchronous steps reports first, whatever its index. Objects sort their fields' issues
// by key order, so only lists need this.
//
// An item's steps, as yup 0.32 takes them: every schema runs its type and value-list check (one
// step; a failure ends that schema), then its tests if it has any (one step), then the schemas of
// its fields, all at once (the slowest decides).
import type { Attribute, Component } from '../content-types/index.js';
import type { ValidationIssue } from '../errors/index.js';
import { isTypeOrValueListMessage } from './messages.js';
import { isPlainObject } from './payload.js';

export interface ItemIssues {
  /** the item's own path (`[...list, index]`) */
  path: string[];
  value: unknown;
  /** the item's component; undefined for a dynamic-zone item that names no known component */
  component: Component | undefined;
  inZone: boolean;
  issues: ValidationIssue[];
}

export interface StepContext {
  isDraft: boolean;
  component: (uid: string) => Component | undefined;
}

/** The items' issues, the items that finish in fewer steps first, in index order among equals. */
export function orderListIssues(items: ItemIssues[], context: StepContext): ValidationIssue[] {
  return items
    .map((item, index) => ({ item, index, steps: itemSteps(item, context) }))
    .sort((a, b) => a.steps - b.steps || a.index - b.index)
    .flatMap(({ item }) => item.issues);
}

const samePath = (a: string[], b: string[]): boolean => a.length === b.length && a.every((key, i) => key === b[i]);

function failsItsCheck(path: string[], issues: ValidationIssue[]): boolean {
  return issues.some((found) => samePath(found.path, path) && isTypeOrValueListMessage(found.message));
}

function itemSteps(item: ItemIssues, context: StepContext): number {
  if (!isPlainObject(item.value) || failsItsCheck(item.path, item.issues)) return 1;
  const fields: number[] = [];
  // a dynamic-zone item's `__component`: a required string with a list of values
  if (item.inZone) fields.push(failsItsCheck([...item.path, '__component'], item.issues) ? 1 : 2);
  if (item.component) fields.push(objectFieldSteps(item.component, item.value, item.path, item.issues, context));
  return 1 + Math.max(0, ...fields);
}

function objectFieldSteps(
  component: Component,
  value: Record<string, unknown>,
  path: string[],
  issues: ValidationIssue[],
  context: StepContext,
): number {
  const steps = Object.entries(component.attributes).map(([name, attribute]) =>
    attributeSteps(attribute, value[name], [...path, name], issues, context),
  );
  return Math.max(0, ...steps);
}

function attributeSteps(
  attribute: Attribute,
  value: unknown,
  path: string[],
  issues: ValidationIssue[],
  context: StepContext,
): number {
  if (failsItsCheck(path, issues)) return 1;
  const own = 1 + (hasTests(attribute, context.isDraft) ? 1 : 0);
  if (attribute.type === 'component' && !attribute.repeatable) {
    const component = context.component(attribute.component);
    return component && isPlainObject(value) ? own + objectFieldSteps(component, value, path, issues, context) : own;
  }
  if ((attribute.type === 'component' || attribute.type === 'dynamiczone') && Array.isArray(value)) {
    const items = value.map((item, index) => {
      const uid =
        attribute.type === 'component' ? attribute.component : isPlainObject(item) ? item.__component : undefined;
      return {
        path: [...path, String(index)],
        value: item,
        component: typeof uid === 'string' ? context.component(uid) : undefined,
        inZone: attribute.type === 'dynamiczone',
        issues,
      };
    });
    return own + Math.max(0, ...items.map((item) => itemSteps(item, context)));
  }
  return own;
}

/** Whether Strapi's schema for the attribute has tests beyond its type and value-list check. */
function hasTests(attribute: Attribute, isDraft: boolean): boolean {
  // lists of components are always "required"
  if (attribute.type === 'dynamiczone' || (attribute.type === 'component' && attribute.repeatable)) return true;
  if (attribute.required && !isDraft) return true;
  if (attribute.unique) return true;
  switch (attribute.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'password':
      return (
        (attribute.minLength !== undefined && !isDraft) ||
        attribute.maxLength !== undefined ||
        attribute.regex !== undefined
      );
    case 'email':
    case 'uid':
    case 'integer':
      return true;
    case 'float':
    case 'decimal':
      return attribute.min !== undefined || attribute.max !== undefined;
    default:
      return false;
  }
}
