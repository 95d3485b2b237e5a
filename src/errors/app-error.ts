/**
 * Errors a client caused or may see. Each carries the HTTP status and Strapi v4's error `name`,
 * and renders as Strapi's body: `{ data: null, error: { status, name, message, details } }`.
 * GraphQL renders the same object as a GraphQL error (code = name).
 */
export type ErrorDetails = Record<string, unknown>;

export interface StrapiErrorBody {
  data: null;
  /** `details` is left out only by errors Strapi renders without it (HttpError) */
  error: { status: number; name: string; message: string; details?: ErrorDetails };
}

export class AppError extends Error {
  readonly status: number;
  readonly details: ErrorDetails;

  constructor(status: number, name: string, message: string, details: ErrorDetails = {}) {
    super(message);
    this.status = status;
    this.name = name;
    this.details = details;
  }

  toBody(): StrapiErrorBody {
    return {
      data: null,
      error: { status: this.status, name: this.name, message: this.message, details: this.details },
    };
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
