/**
 * A configuration file or value that cannot be used; stops start-up naming the file and key. The
 * message is one line (a cause quoted from elsewhere has its line breaks folded).
 */
export class ConfigError extends Error {
  constructor(file: string, key: string | undefined, message: string) {
    super(`${file}${key ? ` (key "${key}")` : ''}: ${message.trim().replace(/\s*\n\s*/g, ' ')}`);
    this.name = 'ConfigError';
  }
}

/** A configuration file that requires a module that is not there (a package the app has not installed). */
export class MissingModuleError extends ConfigError {}
