/**
 * Something about the app's schemas worth one start-up log line that does not stop start-up:
 * parts of a Strapi project this service reads differently or ignores.
 */
export interface SchemaNotice {
  level: 'info' | 'warn';
  message: string;
  /**
   * The custom field (uid) whose base type no mapping gives: the app's code may still register it,
   * so the notice waits for the register hooks (lifecycle/custom-fields.ts).
   */
  unknownCustomField?: string;
}
