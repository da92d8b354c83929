// A real OpenID Connect provider (oidc-provider) on 127.0.0.1 for the social sign-in tests: its own
// login and consent pages (development interactions: any login name, any password), a confidential
// client for the portal, and accounts whose e-mail claims the test chooses.
import http from 'node:http';
export { freePort } from '../../scripts/lib/portal';
import Provider from 'oidc-provider';

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}


export async function startIdp(opts: {
  port: number;
  name: string;
  clientSecret: string;
  redirectUri: string;
  accounts: Record<string, { email: string; email_verified: boolean }>;
}): Promise<TestIdp> {
  const issuer = `http://127.0.0.1:${opts.port}`;
  const clientId = `portal-${opts.name}`;
  const clientSecret = opts.clientSecret;
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [opts.redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // the ID token carries the e-mail (as Google's and Microsoft's do)
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    // both identity providers run on 127.0.0.1: their cookies must not mix
    cookies: { names: { session: `_${opts.name}_session`, interaction: `_${opts.name}_interaction`, resume: `_${opts.name}_resume` }, keys: [`${opts.name}-cookie-key`] },
    findAccount: async (_ctx: unknown, id: string) => {
      const acc = opts.accounts[id] ?? { email: `${id}@${opts.name}.example`, email_verified: false };
      return { accountId: id, claims: async () => ({ sub: `${opts.name}-${id}`, ...acc }) };
    },
  });
  const server = http.createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(opts.port, '127.0.0.1', resolve));
  return {
    issuer,
    clientId,
    clientSecret,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
