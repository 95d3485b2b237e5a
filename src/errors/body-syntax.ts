import { AppError, type StrapiErrorBody } from './app-error.js';

/**
 * A request body that is no JSON object or array, as Strapi v4's body parser (koa-body) refuses
 * it: a 400 named after the parser's error, with no `details`.
 */
export class BodySyntaxError extends AppError {
  constructor(name: string, message: string) {
    super(400, name, message);
  }

  override toBody(): StrapiErrorBody {
    return { data: null, error: { status: this.status, name: this.name, message: this.message } };
  }
}
