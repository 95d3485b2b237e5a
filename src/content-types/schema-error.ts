/** A content-type or component file that cannot be used; stops start-up. Names the file and attribute. */
export class SchemaError extends Error {
  constructor(source: string, message: string, attribute?: string) {
    super(`${source}${attribute ? ` (attribute "${attribute}")` : ''}: ${message}`);
    this.name = 'SchemaError';
  }
}
