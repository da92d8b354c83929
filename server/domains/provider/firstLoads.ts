// Customer.firstLoads: a signed-in page opened cold asks, as its first bytes arrive
// (src/shell/boot/firstPaintEarly.ts), for the data loads of the screen at its path, and gets them
// in one answer. The browser would otherwise ask them one by one only after its scripts came and ran
// (two more round trips on a slow network). Each load is resolved as the screen resolves it
// (src/engine/loads.ts) and answered by the API itself, through the server's own inject with the
// caller's credentials, so every check of that operation applies (its session, its ids against the
// account and provider, its release); what it refuses is left out, and the browser asks it itself.
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../context';
import type { SessionInfo } from '../../auth';
import { contractOperations, readContract, type ContractOperation } from '../../contract';
import { ruleContextOf, programConfig, providerOf } from './provider';
import { declaredFormValues, loadSpecsOf, mergeForms, screenRuleContext } from '../../../src/engine/loads';
import { matchRoute, parseQuery, PRODUCT_BASES, productOfPath, screensOfProduct } from '../../../src/engine/screen';
import { buildPath, buildQuery, splitParams } from '../../../src/engine/operationUrl';
import type { ScreenDecl } from '../../../src/engine/types';
import { isRecord } from '../../json';
import { fixedToday } from '../../../src/engine/today';
import type { TextTree } from '../../../src/engine/textTree';
import type { ScreenPainter, ScreenPaintInput } from '../../../src/engine/screenPaint';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface FirstLoadsBody {
  path: string;
  search?: string;
  /** the browser's stored session (its own fields only fill what the server does not know) */
  session?: Record<string, unknown>;
  /** the notice of the history entry the page opens with */
  notice?: Record<string, unknown>;
}

/** What the early script puts into the page: the screen drawn, when the server draws it ahead. */
export interface FirstLoadsAnswer {
  lang: string;
  loads: FirstLoad[];
  html?: string;
}

export interface FirstLoad {
  op: string;
  params: Record<string, unknown>;
  answer: unknown;
}

type Operation = ContractOperation & { applicationHeaders?: boolean };
const contracts = new Map<string, ReadonlyMap<string, Operation>>();
/** The contract's operations by id, with their service's applicationHeaders (read once per root). */
function operationsOf(root: string): ReadonlyMap<string, Operation> {
  let ops = contracts.get(root);
  if (!ops) {
    const services = readContract(root);
    const withHeaders = new Set(services.filter((s) => s.applicationHeaders).map((s) => s.service));
    contracts.set(root, (ops = new Map(contractOperations(services).map((o) => [o.id, { ...o, applicationHeaders: withHeaders.has(o.service) }]))));
  }
  return ops;
}

/** At most this many loads are answered (a screen declares a dozen at most). */
const MAX_LOADS = 24;

export async function firstLoads(
  deps: AppDeps,
  req: FastifyRequest,
  session: SessionInfo,
  body: FirstLoadsBody,
  lang: string,
): Promise<FirstLoadsAnswer> {
  const ops = operationsOf(deps.root);
  const none = { lang, loads: [] };
  const known = await ruleContextOf(deps.db, session, deps.releaseVersion);
  const decl = deps.declarations.get(known.appName);
  if (!decl) return none;
  const product = productOfPath(body.path);
  const rest = body.path.slice(PRODUCT_BASES[product].length) || '/';
  const match = matchRoute({ screens: screensOfProduct(decl.set.screens as Record<string, ScreenDecl>, product) }, rest.startsWith('/') ? rest : `/${rest}`);
  if (!match?.screen.data) return none;
  const parsed = parseQuery(match.screen, body.search ?? '');
  if (parsed.errors.length) return none; // a broken link: the screen loads nothing for it
  // the browser's context, with what the server knows of the session in place of the browser's word
  const ctx = screenRuleContext({
    query: { ...match.params, ...parsed.query },
    notice: isRecord(body.notice) ? body.notice : {},
    session: { ...(isRecord(body.session) ? body.session : {}), ...known.session, appName: known.appName, token: undefined },
    provider: { ...programConfig(await providerOf(deps.db, session), lang) },
    form: mergeForms(declaredFormValues(match.screen)),
  });
  let specs;
  try {
    specs = loadSpecsOf(decl.set, match.screen.data, ctx);
  } catch {
    return none; // a rule this context cannot evaluate: the browser resolves its loads itself
  }
  const headers: Record<string, string> = { 'accept-language': lang, 'x-release-version': deps.releaseVersion };
  if (req.headers.authorization) headers.authorization = req.headers.authorization;
  const asked = specs.filter((l) => l.active).slice(0, MAX_LOADS);
  const answers = await Promise.all(
    asked.map(async (l): Promise<FirstLoad | null> => {
      const op = ops.get(l.op);
      // only reads, and none with a limit of its own (the browser asks those, counted as always)
      if (!op || op.method !== 'GET' || op.rateLimit || op.response.file === true) return null;
      const split = splitParams(l.op, l.params, { [l.op]: op });
      let url: string;
      try {
        url = buildPath(l.op, op, split.params) + buildQuery(split.query);
      } catch {
        return null; // a path parameter the load does not give
      }
      const res = await req.server.inject({ method: 'GET', url, headers: { ...headers, ...applicationHeaders(op, split.query, body.session) }, remoteAddress: req.ip }).catch(() => null);
      if (res?.statusCode !== 200) return null;
      try {
        return { op: l.op, params: l.params, answer: JSON.parse(res.body) as unknown };
      } catch {
        return null;
      }
    }),
  );
  const loads = answers.filter((a): a is FirstLoad => a !== null);
  // the screen drawn with these answers, for the page's first paint: the portal's and the parent
  // application's (a step opened anew); the other products' pages are entered by their hand-off
  const html =
    product === 'parentportal' || product === 'parentapplication'
      ? await drawAhead(deps.root, {
          declarations: decl.set,
          provider: ctx.provider as never,
          session: ctx.session as never,
          base: PRODUCT_BASES[product],
          path: rest.startsWith('/') ? rest : `/${rest}`,
          screen: match.screen,
          query: { ...match.params, ...parsed.query },
          lang,
          texts: textsOf(deps.root, lang),
          loads,
          engine: decl.engine,
          today: fixedToday(),
        }).catch((err: unknown) => {
          deps.log?.warn({ err }, 'a screen could not be drawn ahead');
          return null;
        })
      : null;
  return html ? { lang, loads, html } : { lang, loads };
}

const painters = new Map<string, Promise<ScreenPainter | null>>();
/**
 * The server's drawing of a screen (src/shell/boot/screenPaint.tsx, built by `npm run build` into
 * dist-server/); none when it is not built (the page then waits for its scripts, as before).
 */
function drawAhead(root: string, input: ScreenPaintInput): Promise<string | null> {
  let painter = painters.get(root);
  if (!painter) {
    const file = join(root, 'dist-server', 'screenPaint.js');
    painter = existsSync(file) ? (import(pathToFileURL(file).href) as Promise<ScreenPainter>) : Promise.resolve(null);
    painters.set(root, painter);
  }
  return painter.then((p) => (p ? p.drawScreen(input) : null));
}

const texts = new Map<string, Record<string, TextTree>>();
/** Every namespace of a language's texts (locales/<lang>/*.json), read once. */
function textsOf(root: string, lang: string): Record<string, TextTree> {
  const key = `${root}|${lang}`;
  let found = texts.get(key);
  if (!found) {
    const dir = join(root, 'locales', lang);
    found = Object.fromEntries(
      readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(dir, f), 'utf8')) as TextTree]),
    );
    texts.set(key, found);
  }
  return found;
}

/**
 * The stored application's ids that the browser's API client sends with a call of the application's
 * services that names its `key` (src/api/client.ts): from the browser's session, as it would send them
 * (the operation checks them against the account).
 */
function applicationHeaders(op: Operation, query: Record<string, unknown>, session: Record<string, unknown> | undefined): Record<string, string> {
  const key = query.key;
  const apps = isRecord(session) && isRecord(session.applications) ? session.applications : {};
  if (!op.applicationHeaders || typeof key !== 'string' || !Object.prototype.hasOwnProperty.call(apps, key)) return {};
  const app = apps[key];
  const out: Record<string, string> = {};
  if (isRecord(app) && app.prAccountID !== undefined && app.prAccountID !== null) out.prAccountID = String(app.prAccountID);
  if (isRecord(app) && app.programPeriodID !== undefined && app.programPeriodID !== null) out.programPeriodID = String(app.programPeriodID);
  return out;
}
