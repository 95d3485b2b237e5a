import { AppError, type StrapiErrorBody } from './app-error.js';

/**
 * A request body Strapi v4's body parser (koa-body) refuses before any route runs: a body that is no
 * JSON object or array (400), one over the size limit (413), one in an encoding it cannot inflate
 * (415). Rendered as Strapi renders them, with no `details`.
 */
export class BodyParserError extends AppError {
  constructor(status: number, name: string, message: string) {
    super(status, name, message);
  }

  override toBody(): StrapiErrorBody {
    return { data: null, error: { status: this.status, name: this.name, message: this.message } };
  }
}
