// What every handler receives, and the shape of a service's handler table.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from './db/index';
import type { Clock } from './clock';
import type { Translator } from './i18n';
import type { Passwords, SessionInfo } from './auth';
import type { DeclarationStore } from './declarations';
import type { ValidationResult } from '../src/engine/index';

export interface AppDeps {
  root: string;
  db: Db;
  clock: Clock;
  t: Translator;
  passwords: Passwords;
  declarations: DeclarationStore;
  releaseVersion: string;
  version: string;
  production: boolean;
  /** sign-in limits (tests lower them to stay fast) */
  signin: { maxFailed: number; perEmailMax: number; perEmailWindowMs: number };
  /** a mail was queued: the sender may flush now */
  mailQueued: () => void;
}

export interface HandlerContext<Q = any, P = any, B = any> {
  req: FastifyRequest;
  reply: FastifyReply;
  deps: AppDeps;
  /** language of the request (Accept-Language) */
  lang: string;
  /** the signed-in session (operations with auth session or temporary) */
  session: SessionInfo | null;
  query: Q;
  params: P;
  body: B;
  /** the form validation result when the operation declares `form` */
  form?: ValidationResult;
}

export interface FileResult {
  file: Uint8Array;
  fileName: string;
  contentType: string;
}

export type Handler = (ctx: HandlerContext) => Promise<unknown>;

export interface HandlerDef {
  handler: Handler;
  /** payment-only logins (access type P) may call this operation */
  paymentOnly?: boolean;
  /** a temporary-password session may call this operation (sign-out) */
  temporaryAllowed?: boolean;
  /** skip the < > ^ check (diagnostic records such as stack traces) */
  allowSpecialCharacters?: boolean;
  /** public writes: the body field naming the provider whose declarations validate the form */
  providerFrom?: 'body.appName';
  /** per-IP limit for public look-ups and sign-in */
  rateLimit?: { max: number; timeWindow: number };
}

export type ServiceHandlers = Record<string, HandlerDef>;
