/**
 * `strapi.plugin('graphql').service('builders').filters.operators` of Strapi 4.26: one entry per
 * GraphQL filter operator, with the REST operator it stands for (`strapiOperator`) and `add(t, type)`,
 * which declares its field on a nexus input definition as the generated filter inputs have it.
 * Plugins that build filter inputs of their own (strapi-plugin-comments) use them.
 */
import { list } from 'nexus';
import { VALUE_OPERATORS } from '../../query/operators.js';
import { FILTERED_SCALARS, GRAPHQL_OPERATORS } from './filters.js';
import { scalarFilterName } from './naming.js';

/** The part of a nexus input definition block the operators use. */
interface InputDefinition {
  field(name: string, config: { type: unknown }): void;
}

export interface FilterOperator {
  fieldName: string;
  strapiOperator: string;
  add(t: InputDefinition, type: string): void;
}

const isScalar = (type: string) => (FILTERED_SCALARS as readonly string[]).includes(type);

export function filterOperators(): Record<string, FilterOperator> {
  const operators: Record<string, FilterOperator> = {
    and: { fieldName: 'and', strapiOperator: '$and', add: (t, type) => t.field('and', { type: list(type) }) },
    or: { fieldName: 'or', strapiOperator: '$or', add: (t, type) => t.field('or', { type: list(type) }) },
    not: {
      fieldName: 'not',
      strapiOperator: '$not',
      add: (t, type) => t.field('not', { type: isScalar(type) ? scalarFilterName(type) : type }),
    },
  };
  for (const op of GRAPHQL_OPERATORS) {
    const fieldName = op.slice(1);
    const arity = VALUE_OPERATORS[op].arity;
    operators[fieldName] = {
      fieldName,
      strapiOperator: op,
      add(t, type) {
        if (op === '$eq' && !isScalar(type))
          throw new TypeError(`Can't use "eq" operator. "${type}" is not a valid scalar`);
        const fieldType = arity === 'flag' ? 'Boolean' : arity === 'list' || arity === 'pair' ? list(type) : type;
        t.field(fieldName, { type: fieldType });
      },
    };
  }
  return operators;
}
