import { AppError, type StrapiErrorBody } from './app-error.js';

/**
 * An error Strapi v4 renders through `http-errors` (its `formatInternalError`), so with no
 * `details`: what its body parser (koa-body) refuses before any route runs (a body that is no JSON
 * object or array, 400; one over the size limit, 413; an encoding it cannot inflate, 415), and the
 * plain `Error` with a status its entity service throws (a dynamic-zone item naming a component id
 * the entry does not have). GraphQL answers the latter as an internal error, as Strapi does.
 */
export class HttpError extends AppError {
  constructor(status: number, name: string, message: string) {
    super(status, name, message);
  }

  override toBody(): StrapiErrorBody {
    return { data: null, error: { status: this.status, name: this.name, message: this.message } };
  }
}
