import { join } from 'node:path';
import dotenv from 'dotenv';

/**
 * Loads the app's `.env` (or the file `ENV_PATH` names) into `process.env`, as Strapi does at start:
 * variables already set in the real environment win. A missing file is not an error.
 */
export function loadDotenv(appDir: string): void {
  dotenv.config({ path: process.env.ENV_PATH ?? join(appDir, '.env'), quiet: true });
}
