import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake provider got. */
export interface ProviderCall {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeOAuthProvider {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  calls: ProviderCall[];
  close(): Promise<void>;
}

/**
 * An OAuth provider on 127.0.0.1 for the sign-in tests: `POST /token` exchanges the code `good`
 * (sent with `client_id` `acme-key` and `client_secret` `acme-secret`) for the access token
 * `tok-new`, other codes are a 400; a profile path answers the profile of its bearer token
 * (`profiles[path][token]`), a 401 Unauthorized for another token.
 */
export async function startFakeOAuthProvider(
  profiles: Record<string, Record<string, unknown>>,
): Promise<FakeOAuthProvider> {
  const calls: ProviderCall[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://fake');
      calls.push({ method: req.method ?? 'GET', path: url.pathname + url.search, headers: req.headers, body });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(body);
        const client = form.get('client_id') === 'acme-key' && form.get('client_secret') === 'acme-secret';
        if (form.get('code') !== 'good' || !client) return json(400, { error: 'bad_verification_code' });
        return json(200, { access_token: 'tok-new', token_type: 'bearer', scope: 'email' });
      }
      const byToken = profiles[url.pathname];
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const profile = byToken?.[token];
      if (profile === undefined) {
        res.writeHead(401, 'Unauthorized', { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ message: 'Bad credentials' }));
      }
      json(200, profile);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
