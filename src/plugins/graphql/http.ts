/**
 * The GraphQL endpoint over HTTP (graphql-http, GET and POST). The caller is authenticated like
 * any `/api` request; validation and parse errors carry Apollo's `extensions.code`
 * (GRAPHQL_VALIDATION_FAILED / GRAPHQL_PARSE_FAILED) and, like Strapi's Apollo server, an answer
 * without `data` is a 400.
 */
import type { Request, RequestHandler, Response } from 'express';
import {
  execute,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  Kind,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { createHandler } from 'graphql-http';
import type { RequestAuth } from '../../access/ability.js';
import type { Logger } from '../../logger.js';
import type { ServiceContext } from '../../service-context.js';
import { ValidationError } from '../../errors/index.js';
import { graphqlContext, type GraphQLContext } from './context.js';
import { costLimitError } from './cost-limit.js';
import { depthLimitRule } from './depth-limit.js';
import { formatResolverError, PARSE_FAILED, VALIDATION_FAILED, withCode } from './errors.js';
import { isMultipart, uploadRuntime, withWorkDir } from '../upload/index.js';
import { PersistedQueries, type PersistedQueryOutcome } from './persisted-queries.js';
import { parseJsonTextParams } from './json-text-params.js';
import { GET_MUTATION_ANSWER, missingQueryAnswer, requestShapeError, type ShapeError } from './request-shape.js';
import { subscriptionError } from './subscriptions.js';
import { startTracing, withTracing } from './tracing.js';
import { isRecord } from './values.js';
import { v15InputLists, type V15Variables } from './v15-input-arrays.js';
import { readGraphQLMultipart } from './upload-multipart.js';

export interface EndpointOptions {
  service: ServiceContext;
  logger: Logger;
  depthLimit: number;
  /** largest operation cost (0: no limit), see cost-limit.ts */
  costLimit: number;
  /** `apolloServer.tracing`: answers carry `extensions.tracing` (the schema must be instrumented) */
  tracing: boolean;
  /** `apolloServer.persistedQueries` (Apollo's automatic persisted queries; on unless `false`) */
  persistedQueries: boolean;
  schema(): GraphQLSchema;
  /** the request's Koa context for resolvers (`context.koaContext`) */
  koaContextOf(req: Request, state: object): object;
}

interface RawRequest {
  req: Request;
  auth: RequestAuth;
}

const PARSED_CACHE_SIZE = 500;

/**
 * The largest document parsed (graphql-js counts tokens as it reads): far above any hand-written
 * query, it keeps a body of tens of thousands of aliases from costing seconds of validation.
 */
const MAX_TOKENS = 50_000;

/**
 * Parsing and validating are pure in (schema, query text), so both are cached, as Apollo does: a
 * repeated query (the common case for an app) costs neither again. The parse cache is bounded
 * (least recently used out); validation results hang off the parsed document.
 */
function documentCache() {
  const parsed = new Map<string, DocumentNode>();
  const validated = new WeakMap<DocumentNode, { schema: GraphQLSchema; errors: readonly GraphQLError[] }>();
  return {
    parse(source: string): DocumentNode {
      const hit = parsed.get(source);
      if (hit) {
        parsed.delete(source);
        parsed.set(source, hit);
        return hit;
      }
      let document: DocumentNode;
      try {
        document = parse(source, { maxTokens: MAX_TOKENS });
      } catch (err) {
        if (err instanceof GraphQLError) throw withCode(err, PARSE_FAILED);
        // graphql-js parses recursively: brackets nested thousands deep overflow its stack
        if (err instanceof RangeError)
          throw new GraphQLError('Syntax Error: the document is nested too deeply.', {
            extensions: { code: PARSE_FAILED },
          });
        throw err;
      }
      parsed.set(source, document);
      if (parsed.size > PARSED_CACHE_SIZE) parsed.delete(parsed.keys().next().value ?? '');
      return document;
    },
    validate(schema: GraphQLSchema, document: DocumentNode, rules: readonly ValidationRule[]): readonly GraphQLError[] {
      const hit = validated.get(document);
      if (hit && hit.schema === schema) return hit.errors;
      const errors = validate(schema, document, rules).map((err) => withCode(err, VALIDATION_FAILED));
      validated.set(document, { schema, errors });
      return errors;
    },
  };
}

function validationRules(depthLimit: number, specified: readonly ValidationRule[]): readonly ValidationRule[] {
  return depthLimit > 0 ? [...specified, depthLimitRule(depthLimit)] : specified;
}

export function graphqlEndpoint(options: EndpointOptions): RequestHandler {
  const documents = documentCache();
  const handle = createHandler<RawRequest, undefined, GraphQLContext>({
    schema: () => options.schema(),
    context: (req) => {
      const context = graphqlContext(options.service, req.raw.auth, req.raw.req, options.koaContextOf);
      if (options.tracing) startTracing(context);
      return context;
    },
    onOperation: options.tracing ? (_req, args, result) => withTracing(args.contextValue, result) : undefined,
    parse: (source) => documents.parse(typeof source === 'string' ? source : source.body),
    validate: (schema, document, rules) => [...documents.validate(schema, document, rules ?? [])],
    validationRules: (_req, _args, specified) => validationRules(options.depthLimit, specified),
    formatError: (err) => (err instanceof GraphQLError ? formatResolverError(err, options.logger) : err),
    // the cost, with this request's variables (so never cached), before validation: a document
    // of a thousand aliases is refused without paying for the validation of each one; then a
    // valid subscription's error (graphql-http's own message comes before validation)
    onSubscribe: (_req, params) => {
      let document: DocumentNode;
      try {
        document = documents.parse(params.query);
      } catch {
        return undefined; // graphql-http parses it again and answers the syntax error
      }
      if (options.costLimit > 0) {
        const operation = { schema: options.schema(), document, ...params };
        const tooCostly = costLimitError(operation, options.costLimit, options.service.config.api.rest);
        if (tooCostly) return [tooCostly];
      }
      const unsupported = subscriptionError(document, params.operationName);
      if (!unsupported) return undefined;
      // graphql-http validates it again (from the cache) and answers what fails
      const invalid = documents.validate(
        options.schema(),
        document,
        validationRules(options.depthLimit, specifiedRules),
      );
      return invalid.length > 0 ? undefined : [unsupported];
    },
    execute: (args: ExecutionArgs) => {
      try {
        const lists = v15InputLists(args);
        if (lists && lists.errors.length > 0) return { errors: v15VariableErrors(args, lists) };
        const result = execute(lists ? { ...args, variableValues: lists.variableValues } : args);
        // variables that cannot be coerced fail before anything runs (`errors`, no `data`): Apollo's BAD_USER_INPUT
        if (!(result instanceof Promise) && result.data === undefined && result.errors)
          return { errors: result.errors.map((err) => withCode(err, 'BAD_USER_INPUT')) };
        return result;
      } catch (err) {
        // what escapes execute is variable coercion, which recurses: variables nested too deeply
        if (!(err instanceof RangeError)) throw err;
        return {
          errors: [new GraphQLError('Variables are nested too deeply', { extensions: { code: 'BAD_USER_INPUT' } })],
        };
      }
    },
  });

  const persisted = new PersistedQueries(options.persistedQueries);

  /**
   * Runs one operation whose body is already read (JSON, or a multipart request's operation); a
   * GET's parameters are read from `url`. A persisted query to remember is remembered once it has
   * parsed and validated.
   */
  const runOperation = async (
    req: Request,
    auth: RequestAuth,
    body: unknown,
    contentType: string | undefined,
    url = req.originalUrl,
    register?: { hash: string; query: string },
  ) => {
    const [answer, init] = await handle({
      url,
      method: req.method,
      headers: { get: (key: string) => requestHeader(req, key, contentType) },
      body: () => Promise.resolve(body === undefined ? '' : (body as string | Record<string, unknown>)),
      raw: { req, auth },
      context: undefined,
    });
    if (register && init.status === 200 && typeof answer === 'string' && !hasNoData(answer))
      persisted.remember(register);
    return { answer: answer === null ? null : withApolloOperationError(answer, body), init };
  };

  const run = async (
    req: Request,
    res: Response,
    body: unknown,
    contentType: string | undefined,
    url?: string,
    register?: { hash: string; query: string },
  ) => {
    const auth = await options.service.authenticate(req);
    const { answer, init } = await runOperation(req, auth, body, contentType, url, register);
    const status = init.status === 200 && typeof answer === 'string' && hasNoData(answer) ? 400 : init.status;
    for (const [name, value] of Object.entries(init.headers ?? {})) if (value !== undefined) res.setHeader(name, value);
    // graphql-http's 405 (with Allow: POST) is for a mutation sent by GET
    if (req.method === 'GET' && status === 405) sendApolloJson(res, status, JSON.stringify(GET_MUTATION_ANSWER));
    else if (typeof answer === 'string' && String(res.getHeader('content-type')).startsWith('application/json'))
      sendApolloJson(res, status, answer);
    else res.status(status).end(answer ?? undefined);
  };

  /**
   * A batch, as Apollo Server 3 answers it: one answer per operation, in order, each on its own
   * (its errors in its place), 200 overall. The operations run one after the other.
   */
  const runBatch = async (req: Request, res: Response, operations: unknown[]) => {
    const auth = await options.service.authenticate(req);
    const answers: unknown[] = [];
    for (const sent of operations) {
      const read = isRecord(sent) ? parseJsonTextParams(sent) : null;
      if (read?.kind === 'operation-error') {
        answers.push(read.answer);
        continue;
      }
      const item = read?.kind === 'operation' ? read.operation : sent;
      const outcome: PersistedQueryOutcome = isRecord(item) ? persisted.resolve(item) : { kind: 'run', operation: {} };
      if (outcome.kind === 'answer') {
        answers.push(JSON.parse(outcome.body));
        continue;
      }
      const operation = isRecord(item) ? outcome.operation : item;
      const missing = missingQueryAnswer(operation);
      if (missing) {
        answers.push(missing);
        continue;
      }
      const { answer } = await runOperation(req, auth, operation, 'application/json', undefined, outcome.register);
      answers.push(JSON.parse(answer ?? 'null'));
    }
    sendApolloJson(res, 200, JSON.stringify(answers));
  };

  return async (req: Request, res: Response, next) => {
    try {
      // Apollo Server 3's koa middleware answers an OPTIONS that no CORS preflight answered: 204
      if (req.method === 'OPTIONS') {
        res.status(204).end();
        return;
      }
      if (req.method === 'POST' && isMultipart(req)) {
        // files stay in the request's directory until the operation has run
        const upload = uploadRuntime(options.service);
        if (!upload) throw new ValidationError('File uploads need the upload plugin');
        await withWorkDir(async (directory) => {
          // the REST limits, the body parser's too (Strapi's graphql-upload sets none: a request's files would be unbounded)
          const { sizeLimit, maxFileSize } = upload.settings;
          const operation = await readGraphQLMultipart(req, { sizeLimit, maxFileSize, directory });
          if (Array.isArray(operation)) await runBatch(req, res, operation);
          else await run(req, res, operation, 'application/json');
        });
        return;
      }
      const textError = readJsonTextParams(req);
      if (textError) {
        sendShapeError(res, textError);
        return;
      }
      const single = req.method === 'GET' ? getParameters(req) : isRecord(req.body) ? req.body : undefined;
      const outcome = single ? persisted.resolve(single) : undefined;
      if (outcome?.kind === 'answer') {
        sendApolloJson(res, outcome.status, outcome.body);
        return;
      }
      // a GET whose query came from the store: its parameters with the query added
      const url =
        req.method === 'GET' && outcome && outcome.operation !== single ? withQuery(req, outcome.operation) : undefined;
      if (req.method === 'POST' && outcome) req.body = outcome.operation;
      const shapeError = url ? null : requestShapeError(req);
      if (shapeError) {
        sendShapeError(res, shapeError);
        return;
      }
      if (req.method === 'POST' && Array.isArray(req.body)) await runBatch(req, res, req.body);
      // a url-encoded form carries the same fields as a JSON body (koa-body reads both)
      else {
        const contentType = req.is('urlencoded') ? 'application/json' : req.get('content-type');
        await run(req, res, req.body, contentType, url, outcome?.register);
      }
    } catch (err) {
      next(err);
    }
  };
}

/**
 * A JSON answer as Apollo Server 3 sends it, byte for byte what Strapi sends: `Content-Type:
 * application/json` (no charset) and the JSON text followed by a newline.
 */
function sendApolloJson(res: Response, status: number, json: string): void {
  res.status(status).setHeader('Content-Type', 'application/json');
  res.end(`${json}\n`);
}

function sendShapeError(res: Response, error: ShapeError): void {
  if (error.status === 405) res.setHeader('Allow', 'GET, POST');
  if (error.contentType === 'application/json') sendApolloJson(res, error.status, error.body);
  else res.status(error.status).type(error.contentType).send(error.body);
}

/**
 * `variables` and `extensions` sent as JSON text, read before anything else as Apollo reads them:
 * a single POST body's are replaced by their values, a GET's are only checked (graphql-http
 * parses the query string itself); a batch is only checked for text that is no JSON, each of its
 * operations being read in its turn (runBatch). The answer that ends the request, or null.
 */
function readJsonTextParams(req: Request): ShapeError | null {
  const body: unknown = req.body;
  const single = req.method === 'GET' ? getParameters(req) : req.method === 'POST' && isRecord(body) ? body : null;
  if (single) {
    const outcome = parseJsonTextParams(single);
    if (outcome.kind === 'request-error') return outcome.error;
    if (outcome.kind === 'operation-error')
      return { status: 400, contentType: 'application/json', body: JSON.stringify(outcome.answer) };
    if (req.method === 'POST') req.body = outcome.operation;
    return null;
  }
  if (req.method !== 'POST' || !Array.isArray(body)) return null;
  for (const operation of body) {
    const outcome = isRecord(operation) ? parseJsonTextParams(operation) : null;
    if (outcome?.kind === 'request-error') return outcome.error;
  }
  return null;
}

/**
 * A header of the request as graphql-http reads it. `Accept` is always JSON: Apollo Server 3
 * answers `application/json` whatever the client accepts (Apollo Client 3.9+ and graphql-request
 * ask for `application/graphql-response+json` first), never a 406.
 */
function requestHeader(req: Request, key: string, contentType: string | undefined): string | null {
  const name = key.toLowerCase();
  if (name === 'content-type') return contentType ?? null;
  if (name === 'accept') return 'application/json';
  return req.get(key) ?? null;
}

/** A GET's operation parameters (`query`, `extensions`, ...), as sent. */
function getParameters(req: Request): Record<string, unknown> {
  return Object.fromEntries(new URL(req.originalUrl, 'http://localhost').searchParams);
}

/** The request's URL with `query` set to the operation's query (a GET keeps its GET semantics). */
function withQuery(req: Request, operation: Record<string, unknown>): string {
  const url = new URL(req.originalUrl, 'http://localhost');
  url.searchParams.set('query', String(operation.query));
  return `${url.pathname}${url.search}`;
}

/**
 * Every coercion error of the request's variables, in their definition order, as graphql-js 15
 * lists them: its errors for lists given for input objects, graphql-js 16's for the other variables.
 */
function v15VariableErrors(args: ExecutionArgs, lists: V15Variables): GraphQLError[] {
  const definitions = getOperationAST(args.document, args.operationName)?.variableDefinitions ?? [];
  const failed = new Set(lists.errors.map((entry) => entry.index));
  const others = definitions
    .map((definition, index) => ({ definition, index }))
    .filter(({ index }) => !failed.has(index));
  const coerced = getVariableValues(
    args.schema,
    others.map(({ definition }) => definition),
    lists.variableValues,
  );
  const otherErrors = (coerced.errors ?? []).map((error) => {
    const name = error.nodes?.[0]?.kind === Kind.VARIABLE_DEFINITION ? error.nodes[0].variable.name.value : '';
    const index = others.find(({ definition }) => definition.variable.name.value === name)?.index ?? definitions.length;
    return { index, error };
  });
  return [...lists.errors, ...otherErrors]
    .sort((a, b) => a.index - b.index)
    .map(({ error }) => withCode(error, 'BAD_USER_INPUT'));
}

/** `{ errors }` without `data`: a request error (parse, validation, variables), answered 400 as Apollo does. */
function hasNoData(body: string): boolean {
  // graphql-js puts `errors` first; an answer with data and no errors is never parsed again
  if (!body.startsWith('{"errors"')) return false;
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed !== null && typeof parsed === 'object' && 'errors' in parsed && !('data' in parsed);
  } catch {
    return false;
  }
}

const NO_OPERATION = '"Unable to detect operation AST"';

/**
 * graphql-http's answer when the document has no operation to run, worded as Apollo words it:
 * the name asked for is unknown, or several operations and no name.
 */
function withApolloOperationError(answer: string, body: unknown): string {
  if (!answer.includes(NO_OPERATION)) return answer;
  const name = isRecord(body) && typeof body.operationName === 'string' ? body.operationName : null;
  const message =
    name === null
      ? 'Must provide operation name if query contains multiple operations.'
      : `Unknown operation named "${name}".`;
  return JSON.stringify({ errors: [{ message, extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
}
