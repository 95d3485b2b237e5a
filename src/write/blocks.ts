// The rich-text `blocks` attribute (Strapi v4.15+): a JSON array of block nodes. Strapi checks each
// node's kind; the nodes' inner structure is the editor's business and is stored as sent.
import type { ValidationIssue } from '../errors/index.js';
import { issue, messages, pathLabel } from './messages.js';

const BLOCK_TYPES = new Set(['paragraph', 'heading', 'quote', 'list', 'image', 'code']);

/** The issues of a `blocks` value (an array of `{ type, children }` nodes of a known kind). */
export function blocksIssues(path: string[], input: unknown): ValidationIssue[] {
  if (!Array.isArray(input)) return [issue(path, messages.array(path, input))];
  const issues: ValidationIssue[] = [];
  input.forEach((node: unknown, i) => {
    const at = [...path, String(i)];
    const type = node !== null && typeof node === 'object' ? (node as { type?: unknown }).type : undefined;
    if (typeof type !== 'string' || !BLOCK_TYPES.has(type))
      issues.push(issue(at, `${pathLabel(at)}: Block node is of invalid type`));
  });
  return issues;
}
