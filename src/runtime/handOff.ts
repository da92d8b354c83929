// The hand-off to another product of the provider (spec 4 redirect flows, 7.3), loaded on first use.
import type { Effect } from '../engine/types';
import type { RuleContext } from '../engine/form';
import { BASE_PATH, resolveBinding, resolveParams } from '../engine/screen';
import type { ApiClient } from '../api/client';
import { PRODUCT_HOST_MISSING } from './handOffCode';

/** What the hand-off uses of the effect runner's dependencies (effects.ts EffectDeps, which loads this file). */
export interface HandOffDeps {
  api: ApiClient;
  navigate: (to: string, query: Record<string, unknown>, replace: boolean) => void;
  assignLocation: (url: string) => void;
  origin: string;
}

/** The placeholder of the parent application's address that the product's host replaces (spec 3). */
const HOST_PLACEHOLDER = '{{applicationHost}}';

/**
 * Spec 4 redirect flows: a product without a host goes to the configuration error page; otherwise
 * the token is asked first (a failure throws: the error shows and nothing navigates), then the
 * browser goes to the product with the keyelement and a cache-busting value.
 */
export async function handOff(deps: HandOffDeps, effect: Extract<Effect, { type: 'handOff' }>, c: RuleContext): Promise<void> {
  const session: Record<string, unknown> = c.session ?? {};
  const programPeriodID = Number(resolveBinding(effect.programPeriodID, c));
  const accountID = Number(session.accountID);
  const appName = String(session.appName ?? '');
  const locale = String(session.locale ?? 'en');
  const product = await deps.api.call('Customer.product', { query: { productname: effect.product } });
  if (!product.host) {
    deps.navigate('/configurationerror', { errorcode: PRODUCT_HOST_MISSING, productname: effect.product }, false);
    return;
  }
  let url: URL;
  if (effect.product === 'parentapplication') {
    const answer = await deps.api.call('Registration.redirectionUrl', {
      body: { programPeriodID, user: String(session.userName ?? ''), userType: 'PARENT', source: effect.source ?? 'PROGRAMLIST', destination: effect.destination ?? 'INSTRUCTION', accountID, applicationName: appName },
    });
    url = new URL(answer.parentApplicationUrl.replace(HOST_PLACEHOLDER, product.host));
  } else {
    url = new URL(product.path, product.host);
    url.searchParams.set('appName', appName);
    url.searchParams.set('programPeriodID', String(programPeriodID));
    url.searchParams.set('lang', locale);
    url.searchParams.set('accountID', String(accountID));
  }
  const extra = resolveParams(effect.query, c);
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  const tokenString = JSON.stringify({
    applicationName: appName,
    locale,
    programPeriodID,
    accessibilityTheme: session.accessibilityTheme ? 'high-contrast' : 'default',
    fontSize: String(session.fontSize ?? 'default'),
    returnUrl: `${deps.origin}${BASE_PATH}${effect.returnTo}`,
    menu: effect.returnTo,
    userName: String(session.userName ?? ''),
    version: String(session.releaseVersion ?? ''),
    accountID,
    ...(typeof session.customerID === 'number' ? { customerID: session.customerID } : {}),
    ...(typeof extra.calendarProgramPeriodID === 'number' ? { calendarProgramPeriodID: extra.calendarProgramPeriodID } : {}),
  });
  const token = await deps.api.call('Registration.applicationToken', { body: { product: effect.product, programPeriodID, accountID, ApplicationTokenString: tokenString } });
  url.searchParams.set('keyelement', token.keyelement);
  url.searchParams.set('_', String(Date.now()));
  deps.assignLocation(url.toString());
}

