// The rich-text `blocks` attribute (Strapi v4.15+): a JSON array of block nodes, checked as Strapi
// 4.26's blocks validator (a yup schema) checks them: each node's kind, then its own fields
// (children, heading level, list format, link url, text marks), every problem reported with
// yup's path and message. Other keys of a node, and an image node's file record, are stored as sent.
import type { ValidationIssue } from '../errors/index.js';
import { issue, messages } from './messages.js';

type Path = string[];
type NodeCheck = (path: Path, node: Record<string, unknown>) => ValidationIssue[];

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** yup's array(): a JSON string is parsed, absent is allowed unless required. */
function arrayOf(
  path: Path,
  value: unknown,
  item: (path: Path, value: unknown) => ValidationIssue[],
  rules: { required?: boolean; min?: string } = {},
): ValidationIssue[] {
  let list = value;
  if (typeof list === 'string')
    try {
      list = JSON.parse(list);
    } catch {
      // not JSON: the type error below
    }
  if (list === undefined) return rules.required ? [issue(path, messages.required(path))] : [];
  // yup's array transform makes anything else null
  if (!Array.isArray(list)) return [issue(path, messages.typeError(path, 'array', null, value))];
  if (rules.min !== undefined && list.length < 1) return [issue(path, rules.min)];
  return list.flatMap((entry: unknown, i) => item([...path, String(i)], entry));
}

/** A node chosen by its `type` among `kinds`; any other is `invalid` (yup's lazy schema). */
function byType(kinds: Record<string, NodeCheck>, invalid: string) {
  return (path: Path, node: unknown): ValidationIssue[] => {
    const check = isObject(node) && typeof node.type === 'string' ? kinds[node.type] : undefined;
    return check && isObject(node) ? check(path, node) : [issue(path, invalid)];
  };
}

function optionalBoolean(path: Path, value: unknown): ValidationIssue[] {
  if (value === undefined || typeof value === 'boolean' || value === 'true' || value === 'false') return [];
  return [issue(path, messages.typeError(path, 'boolean', value, value))];
}

const text: NodeCheck = (path, node) => [
  ...(typeof node.text === 'string' || typeof node.text === 'number'
    ? []
    : [issue([...path, 'text'], 'Text must be defined with at least an empty string')]),
  ...['bold', 'italic', 'underline', 'strikethrough', 'code'].flatMap((mark) =>
    optionalBoolean([...path, mark], node[mark]),
  ),
];

function validLink(url: string): boolean {
  try {
    new URL(url.startsWith('/') ? `https://strapi.io${url}` : url);
    return true;
  } catch {
    return false;
  }
}

const link: NodeCheck = (path, node) => [
  ...(validLink(typeof node.url === 'string' ? node.url : '')
    ? []
    : [issue([...path, 'url'], 'Please specify a valid link.')]),
  ...arrayOf([...path, 'children'], node.children, typeNamed('text', textNodeOnly), { required: true }),
];

/** A child that must be of one kind: another kind fails that kind's `type` check, and its fields are checked still. */
function typeNamed(type: string, check: NodeCheck) {
  return (path: Path, node: unknown): ValidationIssue[] => {
    if (!isObject(node)) return [issue(path, messages.object(path, node))];
    const typePath = [...path, 'type'];
    const typeIssues =
      node.type === type
        ? []
        : node.type === undefined
          ? [issue(typePath, messages.required(typePath))]
          : [issue(typePath, messages.oneOf(typePath, [type]))];
    return [...typeIssues, ...check(path, node)];
  };
}
const textNodeOnly: NodeCheck = (path, node) => text(path, node);

const inline = byType({ text, link }, 'Inline node must be Text or Link');

const withChildren =
  (min: string | undefined): NodeCheck =>
  (path, node) =>
    arrayOf([...path, 'children'], node.children, inline, { required: true, min });

const heading: NodeCheck = (path, node) => {
  const levelPath = [...path, 'level'];
  const level = typeof node.level === 'string' && node.level.trim() !== '' ? Number(node.level) : node.level;
  const levelIssues =
    level === undefined
      ? [issue(levelPath, messages.required(levelPath))]
      : typeof level !== 'number' || Number.isNaN(level)
        ? [
            issue(levelPath, messages.typeError(levelPath, 'number', level, node.level)),
            issue(levelPath, messages.oneOf(levelPath, [1, 2, 3, 4, 5, 6])),
          ]
        : [1, 2, 3, 4, 5, 6].includes(level)
          ? []
          : [issue(levelPath, messages.oneOf(levelPath, [1, 2, 3, 4, 5, 6]))];
  return [
    ...levelIssues,
    ...withChildren('Heading node children must have at least one Text or Link node')(path, node),
  ];
};

const listItem: NodeCheck = (path, node) => arrayOf([...path, 'children'], node.children, inline, { required: true });

const list: NodeCheck = (path, node) => {
  const formatPath = [...path, 'format'];
  const formatIssues =
    node.format === undefined
      ? [issue(formatPath, messages.required(formatPath))]
      : node.format === 'ordered' || node.format === 'unordered'
        ? []
        : [issue(formatPath, messages.oneOf(formatPath, ['ordered', 'unordered']))];
  return [
    ...formatIssues,
    ...arrayOf([...path, 'children'], node.children, listChild, {
      required: true,
      min: 'List node children must have at least one ListItem or ListNode',
    }),
  ];
};
const listChild = byType({ list, 'list-item': listItem }, 'Inline node must be list-item or list');

const code: NodeCheck = (path, node) =>
  arrayOf([...path, 'children'], node.children, typeNamed('text', textNodeOnly), {
    required: true,
    min: 'Quote node children must have at least one Text or Link node',
  });

/** The file record an image node carries (yup reads a missing one as `{}`): its required fields. */
const IMAGE_REQUIRED = [
  'name',
  'url',
  'width',
  'height',
  'formats',
  'hash',
  'ext',
  'mime',
  'size',
  'provider',
  'createdAt',
  'updatedAt',
];
const image: NodeCheck = (path, node) => {
  const file = isObject(node.image) ? node.image : {};
  return [
    ...IMAGE_REQUIRED.filter((field) => file[field] === undefined || file[field] === null).map((field) =>
      issue([...path, 'image', field], messages.required([...path, 'image', field])),
    ),
    ...arrayOf([...path, 'children'], node.children, inline, { required: true }),
  ];
};

const block = byType(
  {
    paragraph: withChildren('Paragraph node children must have at least one Text or Link node'),
    heading,
    quote: withChildren('Quote node children must have at least one Text or Link node'),
    list,
    image,
    code,
  },
  'Block node is of invalid type',
);

/** The issues of a `blocks` value, as Strapi 4.26's validator reports them. */
export function blocksIssues(path: string[], input: unknown): ValidationIssue[] {
  if (!Array.isArray(input)) return [issue(path, messages.array(path, input))];
  // yup reports the problems met first, the shallower ones (a node's own kind) before deeper ones
  return input
    .flatMap((node: unknown, i) => block([...path, String(i)], node))
    .sort((a, b) => a.path.length - b.path.length);
}
