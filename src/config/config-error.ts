/** A configuration file or value that cannot be used; stops start-up naming the file and key. */
export class ConfigError extends Error {
  constructor(file: string, key: string | undefined, message: string) {
    super(`${file}${key ? ` (key "${key}")` : ''}: ${message}`);
    this.name = 'ConfigError';
  }
}
