/**
 * The HTTP calls a provider's `authCallback` makes to read the signed-in person's profile (Strapi
 * makes them with `purest`): a GET answering JSON, a status of 400 or more rejected with
 * `"<status> <reason>"`, the message Strapi's sign-in then answers.
 */
export interface ProfileRequest {
  url: string;
  /** `Authorization: Bearer <token>`, as purest's `.auth(token)` sends it */
  bearer?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

/** How long a provider may take to answer one profile call. */
const PROFILE_TIMEOUT_MS = 10_000;

export async function getProfileJson({ url, bearer, headers = {}, query }: ProfileRequest): Promise<unknown> {
  const target = new URL(url);
  for (const [name, value] of Object.entries(query ?? {})) target.searchParams.set(name, value);
  const res = await fetch(target, {
    headers: { accept: 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...headers },
    redirect: 'follow',
    signal: AbortSignal.timeout(PROFILE_TIMEOUT_MS),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${res.status} ${res.statusText}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A record's field by path, `undefined` where the answer has another shape. */
export function field(value: unknown, ...path: (string | number)[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = Reflect.get(at, key);
  }
  return at;
}
