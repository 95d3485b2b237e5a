/**
 * Apollo's tracing extension (apollo-tracing format, version 1), which GraphQL Playground's
 * TRACING panel draws: with `apolloServer.tracing: true` every field resolver of the schema is
 * timed (the schema is wrapped once, at build time; nothing is wrapped when tracing is off) and
 * each executed operation answers `extensions.tracing = { version, startTime, endTime, duration,
 * execution: { resolvers: [{ path, parentType, fieldName, returnType, startOffset, duration }] } }`
 * (durations and offsets in nanoseconds).
 */
import {
  defaultFieldResolver,
  isObjectType,
  responsePathAsArray,
  type ExecutionResult,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';

interface ResolverTrace {
  path: ReadonlyArray<string | number>;
  parentType: string;
  fieldName: string;
  returnType: string;
  startOffset: number;
  duration: number;
}

export interface TracingFormat {
  version: 1;
  startTime: string;
  endTime: string;
  duration: number;
  execution: { resolvers: ResolverTrace[] };
}

class Tracer {
  private readonly startTime = new Date();
  private readonly start = process.hrtime.bigint();
  private readonly resolvers: ResolverTrace[] = [];

  offset(): number {
    return Number(process.hrtime.bigint() - this.start);
  }

  record(info: GraphQLResolveInfo, startOffset: number): void {
    this.resolvers.push({
      path: responsePathAsArray(info.path),
      parentType: info.parentType.name,
      fieldName: info.fieldName,
      returnType: String(info.returnType),
      startOffset,
      duration: this.offset() - startOffset,
    });
  }

  format(): TracingFormat {
    const duration = this.offset();
    return {
      version: 1,
      startTime: this.startTime.toISOString(),
      endTime: new Date(this.startTime.getTime() + duration / 1e6).toISOString(),
      duration,
      execution: { resolvers: this.resolvers },
    };
  }
}

/** The tracer of each traced request, keyed by its GraphQL context object. */
const tracers = new WeakMap<object, Tracer>();

/** Starts tracing the request whose resolvers receive `context`. */
export function startTracing(context: object): void {
  tracers.set(context, new Tracer());
}

/** The result with `extensions.tracing` when its request was traced. */
export function withTracing(context: unknown, result: ExecutionResult): ExecutionResult {
  const tracer = typeof context === 'object' && context !== null ? tracers.get(context) : undefined;
  if (!tracer) return result;
  return { ...result, extensions: { ...result.extensions, tracing: tracer.format() } };
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function traced(resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => {
    const tracer = typeof context === 'object' && context !== null ? tracers.get(context) : undefined;
    if (!tracer) return resolve(source, args, context, info);
    const startOffset = tracer.offset();
    const done = () => tracer.record(info, startOffset);
    let value: unknown;
    try {
      value = resolve(source, args, context, info);
    } catch (err) {
      done();
      throw err;
    }
    if (!isPromiseLike(value)) {
      done();
      return value;
    }
    return Promise.resolve(value).finally(done);
  };
}

/** Wraps every field resolver of the schema (default resolvers included) with timing. */
export function instrumentSchema(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) field.resolve = traced(field.resolve ?? defaultFieldResolver);
  }
  return schema;
}
