import { AppError, type ErrorDetails } from './app-error.js';

/** A write that kept losing to concurrent writes of the same entry (409); nothing of it was stored. */
export class ConflictError extends AppError {
  constructor(message = 'The entry is being changed by other requests, try again', details: ErrorDetails = {}) {
    super(409, 'ConflictError', message, details);
  }
}
