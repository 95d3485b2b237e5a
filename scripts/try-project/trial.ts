// One pass of the trial: the requests it sends with one credential, and their outcome.
import type { Json } from './samples.js';

export interface PassOutcome {
  /** `token` (the full-access API token) or `user` (a signed-in user's JWT) */
  name: string;
  passed: number;
  /** `METHOD path status body…` of each request that did not answer 2xx (or a GraphQL answer with errors) */
  failed: string[];
  /** requests not sent because the credential's role does not grant their action */
  notGranted: number;
}

export interface Answer {
  status: number;
  ok: boolean;
  body: Json;
  text: string;
}

export class Trial {
  readonly outcome: PassOutcome;
  /** the `Authorization: Bearer` credential; none before a user signs in */
  token: string | undefined;
  /** whether the credential's role grants an action (every action for a full-access token) */
  grants: (action: string) => boolean = () => true;

  constructor(
    private readonly base: string,
    name: string,
    /** the REST prefix the project configures (`config/api` `rest.prefix`, `/api` by default) */
    readonly api = '/api',
  ) {
    this.outcome = { name, passed: 0, failed: [], notGranted: 0 };
  }

  /** Sends a request without counting it. */
  async send(method: string, path: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    // a project's redirect (to its front-end after sign-in) is its answer, not a page to fetch
    const res = await fetch(this.base + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    const text = await res.text();
    let parsed: Json = {};
    try {
      parsed = JSON.parse(text) as Json;
    } catch {
      parsed = { text };
    }
    const answered = res.ok || (res.status >= 300 && res.status < 400);
    const ok = answered && !(path === '/graphql' && Array.isArray(parsed.errors));
    return { status: res.status, ok, body: parsed, text };
  }

  record(method: string, path: string, answer: Answer): void {
    if (answer.ok) this.outcome.passed += 1;
    else this.outcome.failed.push(`${method} ${path} ${answer.status} ${answer.text.slice(0, 240)}`);
  }

  /**
   * Sends and counts a request; one whose `action` the role does not grant is not sent (a
   * front-end would not send it, and Strapi would answer 403) and answers `{}`.
   */
  async call(method: string, path: string, body?: unknown, action?: string): Promise<Json> {
    if (action !== undefined && !this.grants(action)) {
      this.outcome.notGranted += 1;
      return {};
    }
    const answer = await this.send(method, path, body);
    this.record(method, path, answer);
    return answer.body;
  }
}
