// What every handler receives, and the handler table: typed per operation id from the contract
// (src/engine/contract.gen.ts), so query, params, body, session and answer match the declaration.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from './db/index';
import type { Clock } from './clock';
import type { Translator } from './i18n';
import type { Passwords, SessionInfo } from './auth';
import type { DeclarationStore } from './declarations';
import type { ProviderSettings } from './providerSettings';
import type { ValidationResult } from '../src/engine/index';
import type { FileResponse, OperationId, Operations } from '../src/engine/contract.gen';

export interface AppDeps {
  root: string;
  db: Db;
  clock: Clock;
  /** business dates: `clock` on the PORTAL_TODAY day when one is set (server/clock.ts) */
  today: Clock;
  t: Translator;
  passwords: Passwords;
  declarations: DeclarationStore;
  releaseVersion: string;
  version: string;
  production: boolean;
  /** base of links in e-mails and of the social sign-in return address; null: none configured */
  linkBase: string | null;
  /**
   * sign-in limits (tests lower them to stay fast); after slowDownAfter recent failures of one
   * submitted e-mail, each attempt waits slowDownBaseMs, doubling per failure up to slowDownMaxMs
   */
  signin: { maxFailed: number; perEmailMax: number; perEmailWindowMs: number; slowDownAfter: number; slowDownBaseMs: number; slowDownMaxMs: number };
  /** a provider's sign-in lock and account limits (provider.json) */
  settings: (appName: string) => ProviderSettings;
  /** a provider's year-end grade roll-up window (provider.json; tests may set their own) */
  gradeRollup?: (appName: string) => import('./gradeRollup').RollupWindow | null;
  /** a mail was queued: the sender may flush now */
  mailQueued: () => void;
  /** the payment gateways by provider code (server/gateways/); none: paying is unavailable */
  gateways?: (code: number) => import('./gateways/adapter').PaymentGateway | undefined;
  log?: { warn: (o: unknown, m: string) => void; error: (o: unknown, m: string) => void };
  /**
   * test hooks: a pause between finding a seat and taking it, inside the submit (the concurrency
   * test); submits per database call (default SUBMIT_BATCH; 1: each submit its own transaction)
   */
  hooks?: { pauseBeforeSeatTakeMs?: number; submitBatch?: number };
}

/** The session a handler sees: always there for operations that require one. */
export type SessionOf<Op extends OperationId> = Op extends OperationId ? (Operations[Op]['auth'] extends 'public' ? SessionInfo | null : SessionInfo) : never;

/** What a handler answers: the contract's response, or a file for download operations. */
export type AnswerOf<Op extends OperationId> = Operations[Op]['response'] extends FileResponse ? FileResult : Operations[Op]['response'];

export interface HandlerContext<Op extends OperationId = OperationId> {
  req: FastifyRequest;
  reply: FastifyReply;
  deps: AppDeps;
  /** language of the request (Accept-Language) */
  lang: string;
  /** the signed-in session (non-null for operations with auth session or temporary) */
  session: SessionOf<Op>;
  query: Operations[Op]['query'];
  params: Operations[Op]['params'];
  body: Operations[Op]['body'];
  /** the form validation result (pruned, with the handler's facts) when the operation declares `form` */
  form: Op extends OperationId ? (Operations[Op]['form'] extends string ? ValidationResult<NonNullable<Operations[Op]['body']>> : undefined) : never;
}

export interface FileResult {
  file: Uint8Array;
  fileName: string;
  contentType: string;
}

/** The context before validation: what `facts` may read. */
export type FactsContext<Op extends OperationId> = Omit<HandlerContext<Op>, 'form'>;

export interface HandlerDef<Op extends OperationId = OperationId> {
  /**
   * The server's own facts merged over the body before the form is validated (the account holder
   * kind, do-not-release, the provider's user-defined field and medical definitions), so a write is
   * validated once, with what the server knows, never with what the client claims.
   */
  facts?: (c: FactsContext<Op>) => Promise<Record<string, unknown>>;
  /**
   * What the form's rules read in `$data` on the server, the way the screen's loads give it in the browser
   * (the provider's payment options for the payer form; the short lists whose fields hide while the
   * provider's list is empty): the server's own, never the client's.
   */
  ruleData?: (c: FactsContext<Op>) => Promise<Record<string, unknown>>;
  /**
   * What the form's rules read in `$flow` and `$query` on the server, as the page has them (the method
   * chosen on the autopay pages, the page it came from): the server's own reading of the request.
   */
  ruleScreen?: (c: FactsContext<Op>) => Promise<{ flow?: Record<string, unknown>; query?: Record<string, unknown> }>;
  handler: (c: HandlerContext<Op>) => Promise<AnswerOf<Op>>;
}

/** One handler per contract operation: a missing one or a wrong answer is a type error. */
export type Handlers = { [Op in OperationId]: HandlerDef<Op> };

/** A service file's part of the table. */
export type ServiceHandlers<Ops extends OperationId> = { [Op in Ops]: HandlerDef<Op> };
