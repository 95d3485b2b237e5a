/**
 * Something about the app's schemas worth one start-up log line that does not stop start-up:
 * parts of a Strapi project this service reads differently or ignores.
 */
export interface SchemaNotice {
  level: 'info' | 'warn';
  message: string;
}
