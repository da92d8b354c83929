// Authentication service: sign-in and sign-out, the password flows (forgot password, sign up, the
// reset / create password link, new parent registration) and social sign-in.
import type { ServiceHandlers } from '../context';
import type { AuthenticationRegisterBody, OperationId } from '../../src/engine/contract.gen';
import { passwordSignIn, signOut } from '../domains/access/authentication';
import { forgotPassword, register, resetPassword, signUp } from '../domains/access/passwordFlows';
import { socialAuthorizeUrl, socialCallback, socialComplete, socialLink, socialOptions, socialStart } from '../domains/access/socialSignIn';

type AuthenticationOps = Extract<OperationId, `Authentication.${string}`>;

export const authenticationHandlers = {
  'Authentication.login': {
    // per IP limit in the contract; the per e-mail limit is counted in signin_audit
    handler: async ({ deps, lang, req, body }) => passwordSignIn(deps, lang, req.ip, body),
  },
  'Authentication.logout': {
    handler: async ({ deps, session }) => signOut(deps, session.sessionId),
  },

  'Authentication.forgotPassword': {
    handler: async ({ deps, body, lang, req }) => forgotPassword(deps, lang, req.ip, body),
  },
  'Authentication.signUp': {
    handler: async ({ deps, body, lang, req }) => signUp(deps, lang, req.ip, body),
  },
  'Authentication.resetPassword': {
    // the token is bound into the body by the screen, beside the form's values; the form requires the password
    handler: async ({ deps, body, lang, form, req }) =>
      resetPassword(deps, lang, req.ip, body.appName, { mode: form.data.mode, newPassword: form.data.newPassword ?? '', token: String(body.token) }),
  },
  'Authentication.register': {
    // the form requires every field it shows
    handler: async ({ deps, body, lang, form, req }) => register(deps, lang, req.ip, body.appName, form.data as Required<AuthenticationRegisterBody>),
  },

  'Authentication.socialOptions': {
    handler: async ({ deps, query }) => socialOptions(deps, query.appName),
  },
  'Authentication.socialStart': {
    handler: async ({ deps, query, lang }) => socialStart(deps, lang, query.appName, query.idp),
  },
  'Authentication.socialAuthorize': {
    handler: async ({ deps, query, lang, reply }) => reply.redirect(await socialAuthorizeUrl(deps, lang, query.state), 302),
  },
  'Authentication.socialCallback': {
    handler: async ({ deps, query, lang, reply, req }) => reply.redirect(await socialCallback(deps, lang, query, req.log), 302),
  },
  'Authentication.socialComplete': {
    handler: async ({ deps, query, lang }) => socialComplete(deps, lang, query.appName, query.ticket),
  },
  'Authentication.socialLink': {
    handler: async ({ deps, body, lang, req }) => socialLink(deps, lang, req.ip, body),
  },
} satisfies ServiceHandlers<AuthenticationOps>;
