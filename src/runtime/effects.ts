// Runs an action's effect (ARCHITECTURE.md "Data flow", step 4). Kept free of React so that the
// order of calls (validate -> call -> then) is tested without a browser.
import type { ActionDecl, DeclarationSet, Effect } from '../engine/types';
import type { FormEngine, RuleContext } from '../engine/form';
import { BASE_PATH, PRODUCT_BASES, productOfPath, resolveBinding, resolveParams } from '../engine/screen';
import { evaluateRule, isTrue } from '../engine/logic';
import { splitParams, type ApiClient, type CallArgs } from '../api/client';
import type { SessionState } from '../state/session';
import { clearFlow, newFlowKey, setFlowValues } from '../state/flow';
import type { FormHandle } from './context';
import { isRecord, operationId } from './guards';

export interface EffectDeps {
  set: DeclarationSet;
  api: ApiClient;
  engine: FormEngine | null;
  /** loads the form engine when a screen asked for it only on first use (light forms) */
  loadEngine?: () => Promise<FormEngine | null>;
  /** the current screen context (read fresh: a previous effect may have changed the session) */
  getCtx: () => RuleContext;
  forms: () => FormHandle[];
  /** resolves when a form registers (a modal's form can still be loading when its button is pressed) */
  formRegistered?: () => Promise<void>;
  /** how long an effect waits for its named form to register (15 s: a lazy modal on a slow phone) */
  formWaitMs?: number;
  navigate: (to: string, query: Record<string, unknown>, replace: boolean, notice?: Record<string, unknown>) => void;
  openModal: (id: string, pending?: { effect: Effect; extra: Partial<RuleContext> }) => void;
  closeModal: () => void;
  signOut: () => void;
  /** refetches this screen's loads (keys) and, awaited, the cached loads of other screens by operation (ops) */
  reload: (keys?: string[], ops?: string[]) => void | Promise<void>;
  updateSession: (fn: (s: SessionState) => SessionState) => void;
  /** shows 'Please correct the error(s)...' at the top (or clears it with null) */
  setPageError: (key: string | null) => void;
  /** opens the file chooser; null when cancelled */
  pickFile: (accept: string[] | undefined) => Promise<File | null>;
  setUpload: (state: { pct: number } | null) => void;
  /** reports a rejected file (wrong type, too big) as a translation key */
  setUploadError: (error: { key: string; params: Record<string, unknown> } | null) => void;
  assignLocation: (url: string) => void;
  /** the browser's path (which product this page is) */
  currentPath?: () => string;
  /** the browser's print dialog */
  print?: () => void;
  origin: string;
}

export { toSearch } from './search';

/** The form a submit validates: named by section id or schema id, else the screen's only form. */
export function findForm(forms: FormHandle[], name: string | undefined): FormHandle | undefined {
  if (name) return forms.find((f) => f.section.id === name || f.schemaId === name);
  return forms[0];
}

function callArgs(op: string, params: Record<string, unknown>, body?: unknown): CallArgs {
  const split = splitParams(op, params);
  return { params: split.params, query: split.query, body };
}

export { PRODUCT_HOST_MISSING } from './handOffCode';

export function createEffectRunner(deps: EffectDeps) {
  /** The named form, waiting up to 15 s for it to register when it is not there yet. */
  async function formNamed(name: string | undefined): Promise<FormHandle | undefined> {
    let form = findForm(deps.forms(), name);
    const until = Date.now() + (deps.formWaitMs ?? 15_000);
    while (!form && name && deps.formRegistered && Date.now() < until) {
      await Promise.race([deps.formRegistered(), new Promise((r) => setTimeout(r, until - Date.now()))]);
      form = findForm(deps.forms(), name);
    }
    return form;
  }

  async function engineFor(): Promise<FormEngine> {
    const engine = deps.engine ?? (deps.loadEngine ? await deps.loadEngine() : null);
    if (!engine) throw new Error('form engine is not loaded');
    return engine;
  }

  /** The page-level message goes to the form when it shows its own, else to the screen's top. */
  function pageError(form: FormHandle | undefined, key: string | null) {
    if (form?.showPageError) {
      form.showPageError(key);
      deps.setPageError(null);
    } else deps.setPageError(key);
  }

  async function run(effect: Effect, extra: Partial<RuleContext> = {}): Promise<void> {
    const ctx = (): RuleContext => ({ ...deps.getCtx(), ...extra });
    const params = (p: Record<string, unknown> | undefined) => resolveParams(p, ctx());
    switch (effect.type) {
      case 'submit': {
        const form = await formNamed(effect.form);
        let body: unknown;
        if (form) {
          const engine = await engineFor();
          const result = engine.validate(form.schemaId, form.getValues(), ctx());
          if (!result.valid) {
            pageError(form, result.pageError ?? 'errors.pageLevel');
            form.showAllErrors();
            return;
          }
          body = result.data;
        } else if (effect.form) {
          throw new Error(`submit names form "${effect.form}" which is not on the screen`);
        }
        pageError(form, null);
        if (effect.body) body = { ...(isRecord(body) ? body : {}), ...params(effect.body) };
        const answer = await deps.api.call(operationId(effect.op), callArgs(effect.op, params(effect.params), body));
        if (effect.then) await run(effect.then, { ...extra, result: answer });
        return;
      }
      case 'call': {
        const answer = await deps.api.call(operationId(effect.op), callArgs(effect.op, params(effect.params), effect.body ? params(effect.body) : undefined));
        if (effect.then) await run(effect.then, { ...extra, result: answer });
        return;
      }
      case 'navigate': {
        const query = params(effect.query);
        for (const [k, rule] of Object.entries(effect.queryRules ?? {})) query[k] = evaluateRule(deps.set.rules, rule, ctx());
        if (effect.product && effect.product !== productOfPath(deps.currentPath?.() ?? BASE_PATH)) {
          // another product (the portal from the parent application): its own page and session
          const search = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => [k, String(v)])).toString();
          deps.assignLocation(`${PRODUCT_BASES[effect.product]}${effect.to}${search ? `?${search}` : ''}`);
          return;
        }
        deps.navigate(effect.to, query, Boolean(effect.replace), effect.notice ? params(effect.notice) : undefined);
        return;
      }
      case 'print':
        deps.print?.();
        return;
      case 'copy': {
        const text = resolveBinding(effect.text, ctx());
        // a browser without the clipboard (or refusing it) leaves the text on the page to select
        await navigator.clipboard?.writeText(String(text ?? '')).catch(() => undefined);
        if (effect.then) await run(effect.then, extra);
        return;
      }
      case 'modal':
        deps.openModal(effect.modal);
        return;
      case 'closeModal':
        deps.closeModal();
        if (effect.then) await run(effect.then, extra);
        return;
      case 'download': {
        if (effect.form) {
          const form = await formNamed(effect.form);
          if (!form) throw new Error(`download names form "${effect.form}" which is not on the screen`);
          const engine = await engineFor();
          const result = engine.validate(form.schemaId, form.getValues(), ctx());
          if (!result.valid) {
            pageError(form, result.pageError ?? 'errors.pageLevel');
            form.showAllErrors();
            return;
          }
          pageError(form, null);
        }
        const fileName = effect.fileName === undefined ? undefined : resolveBinding(effect.fileName, ctx());
        const values = params(effect.params);
        for (const [k, rule] of Object.entries(effect.paramRules ?? {})) values[k] = evaluateRule(deps.set.rules, rule, ctx());
        await deps.api.download(operationId(effect.op), callArgs(effect.op, values), fileName ? String(fileName) : undefined);
        return;
      }
      case 'upload': {
        // the file chooser first, while the click still counts as the parent's gesture
        const file = await deps.pickFile(effect.accept);
        if (!file) return;
        const { validateUpload } = await import('../engine/transfers');
        const check = validateUpload({ name: file.name, size: file.size }, { accept: effect.accept, maxMB: effect.maxMB });
        if (!check.ok) {
          deps.setUploadError({ key: check.key, params: check.params });
          return;
        }
        deps.setUploadError(null);
        deps.setUpload({ pct: 0 });
        try {
          const answer = await deps.api.upload(operationId(effect.op), callArgs(effect.op, params(effect.params)), file, (pct) => deps.setUpload({ pct }));
          if (effect.then) await run(effect.then, { ...extra, result: answer });
        } finally {
          deps.setUpload(null);
        }
        return;
      }
      case 'redirectOut': {
        let c = ctx();
        let url = effect.url;
        if (effect.op) {
          // the API answers the external application's address (e.g. parentApplicationUrl)
          const answer = await deps.api.call(operationId(effect.op), callArgs(effect.op, params(effect.params)));
          c = { ...c, result: answer };
          if (url === undefined) url = '$result.url';
        }
        const { redirectTarget } = await import('../engine/transfers');
        const target = redirectTarget(deps.set, { ...effect, url }, c, deps.origin);
        deps.assignLocation(target.url);
        return;
      }
      case 'leave': {
        const url = resolveBinding(effect.url, ctx());
        // only an absolute web address the server answered; anything else stays here
        if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new Error('leave: the address is missing or not absolute');
        if (effect.loader) deps.updateSession((s) => ({ ...s, loaderInfo: { type: effect.loader!, referrer: effect.referrer } }));
        deps.assignLocation(url);
        return;
      }
      case 'branch': {
        const next = isTrue(deps.set.rules, effect.when, ctx()) ? effect.then : effect.else;
        if (next) await run(next, extra);
        return;
      }
      case 'handOff':
        // loaded when a parent first leaves for another product: the entry stays small
        await (await import('./handOff')).handOff(deps, effect, ctx());
        return;
      case 'signOut':
        deps.signOut();
        return;
      case 'reload':
        await deps.reload(effect.data, effect.ops);
        if (effect.then) await run(effect.then, extra);
        return;
      case 'setFlow': {
        const c = ctx();
        const query = c.query ?? {};
        let key = typeof query.key === 'string' && query.key ? query.key : undefined;
        // a flow starts here: the new key goes to the `then` effect as $query.key
        if (!key) key = newFlowKey();
        const values = params(effect.values);
        const k = key;
        deps.updateSession((s) => setFlowValues(s, k, values));
        if (effect.then) await run(effect.then, { ...extra, query: { ...query, key: k } });
        return;
      }
      case 'clearFlow': {
        const key = ctx().query?.key;
        if (typeof key === 'string' && key) deps.updateSession((s) => clearFlow(s, key));
        if (effect.then) await run(effect.then, extra);
        return;
      }
      case 'setSession': {
        const c = ctx();
        const resolved = effect.from === undefined ? undefined : resolveBinding(effect.from, c);
        const from: Record<string, unknown> = isRecord(resolved) ? { ...resolved } : {};
        for (const k of effect.omit ?? []) delete from[k];
        const values = resolveParams(effect.values, c);
        // the session state keeps what the declarations put there (sign-in: token and account fields)
        deps.updateSession((s) => ({ ...s, ...from, ...values }));
        if (effect.then) await run(effect.then, extra);
        return;
      }
      default: {
        const never: never = effect;
        throw new Error(`unknown effect ${JSON.stringify(never)}`);
      }
    }
  }

  /** An action: ask first when it names a confirm modal (and its `confirmWhen` holds), else run its effect. */
  async function runAction(action: ActionDecl, extra: Partial<RuleContext> = {}): Promise<void> {
    if (action.confirm && (!action.confirmWhen || isTrue(deps.set.rules, action.confirmWhen, { ...deps.getCtx(), ...extra }))) {
      deps.openModal(action.confirm, { effect: action.effect, extra });
      return;
    }
    await run(action.effect, extra);
  }

  return { run, runAction };
}
