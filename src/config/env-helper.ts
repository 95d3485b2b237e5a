/**
 * Strapi v4's `env` helper, handed to `({ env }) => config` modules, with Strapi's parsing rules:
 * a variable counts as set when it exists in `process.env`, even empty; `int`/`float` parse with
 * parseInt/parseFloat (so `"12px"` is 12 and `"abc"` is NaN); `bool` is true only for `"true"`;
 * `array` strips one pair of surrounding brackets, splits on commas and trims spaces then double
 * quotes; `json` throws on invalid JSON; `date` is `new Date(value)`; `oneOf` falls back to the
 * default when the value is not one of the expected ones.
 */

function isSet(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(process.env, name);
}

function raw(name: string): string {
  return process.env[name] ?? '';
}

/** Trims every leading and trailing occurrence of `char` (lodash `trim(value, char)` for one character). */
function trimChar(value: string, char: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && value[start] === char) start++;
  while (end > start && value[end - 1] === char) end--;
  return value.slice(start, end);
}

function envValue(name: string): string | undefined;
function envValue<T>(name: string, defaultValue: T): string | T;
function envValue<T>(name: string, defaultValue?: T): string | T | undefined {
  return isSet(name) ? process.env[name] : defaultValue;
}

const typed = {
  int(name: string, defaultValue?: number): number | undefined {
    return isSet(name) ? parseInt(raw(name), 10) : defaultValue;
  },
  float(name: string, defaultValue?: number): number | undefined {
    return isSet(name) ? parseFloat(raw(name)) : defaultValue;
  },
  bool(name: string, defaultValue?: boolean): boolean | undefined {
    return isSet(name) ? raw(name) === 'true' : defaultValue;
  },
  json(name: string, defaultValue?: unknown): unknown {
    if (!isSet(name)) return defaultValue;
    try {
      return JSON.parse(raw(name)) as unknown;
    } catch (err) {
      throw new Error(`Invalid json environment variable ${name}: ${(err as Error).message}`);
    }
  },
  array(name: string, defaultValue?: string[]): string[] | undefined {
    if (!isSet(name)) return defaultValue;
    let value = raw(name);
    if (value.startsWith('[') && value.endsWith(']')) value = value.substring(1, value.length - 1);
    return value.split(',').map((item) => trimChar(trimChar(item, ' '), '"'));
  },
  date(name: string, defaultValue?: Date): Date | undefined {
    return isSet(name) ? new Date(raw(name)) : defaultValue;
  },
  oneOf(name: string, expectedValues?: unknown[], defaultValue?: unknown): unknown {
    if (!expectedValues) throw new Error('env.oneOf requires expectedValues');
    if (defaultValue && !expectedValues.includes(defaultValue))
      throw new Error('env.oneOf requires defaultValue to be included in expectedValues');
    const value = envValue(name, defaultValue);
    return expectedValues.includes(value) ? value : defaultValue;
  },
};

export type EnvHelper = typeof envValue & typeof typed;

export const env: EnvHelper = Object.assign(envValue, typed);
