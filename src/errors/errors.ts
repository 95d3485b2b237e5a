import { AppError, type ErrorDetails, type StrapiErrorBody } from './app-error.js';

/** One entry of `details.errors` in a ValidationError, as Strapi's yup-based validators emit. */
export interface ValidationIssue {
  path: string[];
  message: string;
  name: 'ValidationError';
}

export class ValidationError extends AppError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(400, 'ValidationError', message, details);
  }

  /** Several field problems at once; the first one's message becomes the error's message. */
  static fromIssues(issues: ValidationIssue[]): ValidationError {
    const message = issues.length > 1 ? `${issues.length} errors occurred` : (issues[0]?.message ?? 'Invalid input');
    return new ValidationError(message, { errors: issues });
  }

  static forPath(path: string[], message: string): ValidationError {
    return ValidationError.fromIssues([{ path, message, name: 'ValidationError' }]);
  }
}

/** Strapi's `PaginationError` (400): pagination parameters that cannot be applied. */
export class PaginationError extends AppError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(400, 'PaginationError', message, details);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not Found', details: ErrorDetails = {}) {
    super(404, 'NotFoundError', message, details);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Forbidden', details: ErrorDetails = {}) {
    super(403, 'ForbiddenError', message, details);
  }
}

/** A route's policy answered something else than true (or nothing), as Strapi's PolicyError. */
export class PolicyError extends AppError {
  constructor(message = 'Policy Failed', details: ErrorDetails = {}) {
    super(403, 'PolicyError', message, details);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Unauthorized', details: ErrorDetails = {}) {
    super(401, 'UnauthorizedError', message, details);
  }
}

export class RateLimitError extends AppError {
  constructor(message = 'Too many requests, please try again later.', details: ErrorDetails = {}) {
    super(429, 'RateLimitError', message, details);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message = 'Payload too large', details: ErrorDetails = {}) {
    super(413, 'PayloadTooLargeError', message, details);
  }
}

/** A request that cannot be read at all (Strapi's koa `BadRequestError`, e.g. a malformed path). */
export class BadRequestError extends AppError {
  constructor(message = 'Bad Request', details: ErrorDetails = {}) {
    super(400, 'BadRequestError', message, details);
  }
}

/** A dependency the request needs is down (the database): try again later. */
export class ServiceUnavailableError extends AppError {
  constructor(message = 'Service Unavailable', details: ErrorDetails = {}) {
    super(503, 'ServiceUnavailableError', message, details);
  }
}

/** Any other client error (Strapi's generic `ApplicationError`, status 400). */
export class ApplicationError extends AppError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(400, 'ApplicationError', message, details);
  }
}

/** An unexpected fault: rendered without its message, stack or details (as Strapi's), logged in full by the caller. */
export class InternalServerError extends AppError {
  constructor() {
    super(500, 'InternalServerError', 'Internal Server Error');
  }

  override toBody(): StrapiErrorBody {
    return { data: null, error: { status: this.status, name: this.name, message: this.message } };
  }
}
