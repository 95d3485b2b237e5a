/**
 * Variables that give a list where an input object is expected, read as graphql-js 15 (Strapi
 * 4.26's Apollo Server 3) reads them: a list is an object whose keys are its indexes, so `[]` is
 * an empty input object and each item of a longer list is an unknown field (`Field "0" is not
 * defined by type "NoteInput".`, after any required field it lacks). graphql-js 16 refuses every
 * list with `Expected type "NoteInput" to be an object.`
 */
import {
  getOperationAST,
  GraphQLError,
  isInputObjectType,
  isInputType,
  isListType,
  isNonNullType,
  typeFromAST,
  type ExecutionArgs,
  type GraphQLInputType,
  type VariableDefinitionNode,
} from 'graphql';
import { inspect } from 'graphql/jsutils/inspect.js';
import { printPathArray } from 'graphql/jsutils/printPathArray.js';
import { isRecord } from './values.js';

export interface V15Variables {
  /** the variables with every empty list given for an input object read as `{}` */
  variableValues: Record<string, unknown>;
  /** graphql-js 15's errors for the longer lists, by variable in definition order */
  errors: { index: number; error: GraphQLError }[];
}

/** Reads the request's variables as graphql-js 15 would where it differs from 16 (lists for input objects). */
export function v15InputLists(args: ExecutionArgs): V15Variables | null {
  const raw = args.variableValues;
  if (!raw || typeof raw !== 'object') return null;
  const operation = getOperationAST(args.document, args.operationName);
  const definitions = operation?.variableDefinitions ?? [];
  const variableValues: Record<string, unknown> = { ...raw };
  const errors: V15Variables['errors'] = [];
  definitions.forEach((definition, index) => {
    const name = definition.variable.name.value;
    const type = typeFromAST(args.schema, definition.type);
    if (!Object.hasOwn(raw, name) || !isInputType(type)) return;
    const onError = (path: (string | number)[], value: unknown, message: string) => {
      errors.push({ index, error: variableError(definition, name, path, value, message) });
    };
    variableValues[name] = readValue(raw[name], type, [], onError);
  });
  return { variableValues, errors };
}

type OnError = (path: (string | number)[], value: unknown, message: string) => void;

function readValue(value: unknown, type: GraphQLInputType, path: (string | number)[], onError: OnError): unknown {
  if (isNonNullType(type)) return readValue(value, type.ofType, path, onError);
  if (value === null || value === undefined) return value;
  if (isListType(type)) {
    const itemType = type.ofType;
    return Array.isArray(value)
      ? value.map((item, i) => readValue(item, itemType, [...path, i], onError))
      : readValue(value, itemType, path, onError);
  }
  if (!isInputObjectType(type)) return value;
  const fields = type.getFields();
  if (Array.isArray(value)) {
    for (const field of Object.values(fields))
      if (isNonNullType(field.type) && field.defaultValue === undefined)
        onError(path, value, `Field "${field.name}" of required type "${inspect(field.type)}" was not provided.`);
    for (const key of Object.keys(value)) onError(path, value, `Field "${key}" is not defined by type "${type.name}".`);
    return value.length === 0 ? {} : value;
  }
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      const field = Object.hasOwn(fields, key) ? fields[key] : undefined;
      return [key, field ? readValue(item, field.type, [...path, key], onError) : item];
    }),
  );
}

/** graphql-js's wording of a variable's coercion error. */
function variableError(
  definition: VariableDefinitionNode,
  name: string,
  path: (string | number)[],
  value: unknown,
  message: string,
): GraphQLError {
  const at = path.length > 0 ? ` at "${name}${printPathArray(path)}"` : '';
  return new GraphQLError(`Variable "$${name}" got invalid value ${inspect(value)}${at}; ${message}`, {
    nodes: definition,
  });
}
