// The entry of the parent application, the one-time enrolment, the calendar and the punch pass (each product's base path, reached
// by the hand-off, spec 4 redirect flows; 7.3): the keyelement in the address is redeemed once, by this
// product, into the product's own session, the address bar forgets it at once, and the account's
// in-progress application (ParentApplication.start) or one-time enrolment (Registration.oneTimeStart)
// of the program is started or resumed: its `key` names the draft the server keeps (the calendar and the
// punch pass keep none: the parent goes on at the child's month, or at the passes offered and hers). The parent goes
// on at the step she stopped at, on this device or another one. The redeem carries the token of the portal session
// this browser is signed in with: the server redeems a keyelement only for the portal session that
// asked for it, so a link asked for in another browser is refused with its message and no account
// switches.
import { Alert, Center, Link, Spinner, Text, VStack } from '@chakra-ui/react';
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../runtime/texts';
import { useLocation } from 'wouter';
import { PRODUCT_BASES } from '../../engine/screen';
import { APPLICATION_TYPE } from '../../engine/programCodes';
import { CURRENT_PRODUCT } from '../routing/screens';
import { createApiClient } from '../../api/client';
import { apiAtom, setFlowValues, signedOutSession, storedPortalToken } from '../../state';
import { useSession } from '../shellState';
import { providerSessionFields } from './ProviderEntry';

/** Where each stored step of an application continues. */
export const APPLICATION_STEP_ROUTES: Record<string, string> = {
  children: '/children',
  enrollment: '/enrollment',
  fee: '/fee',
  review: '/review',
  submitted: '/confirmation',
};

type Phase = { kind: 'redeeming' } | { kind: 'starting'; programPeriodID: number } | { kind: 'failed'; message: string } | { kind: 'noHandOff' };

export function ApplicationEntry({ appName, programPeriodID, keyelement }: { appName?: string; programPeriodID?: string; keyelement?: string }) {
  const { t } = useTranslation('application');
  const api = useAtomValue(apiAtom);
  const [session, setSession] = useSession();
  const [, navigate] = useLocation();
  const pp = Number(programPeriodID);
  const [phase, setPhase] = useState<Phase>(() =>
    keyelement && appName ? { kind: 'redeeming' } : session.token && Number.isInteger(pp) && pp > 0 ? { kind: 'starting', programPeriodID: pp } : { kind: 'noHandOff' },
  );
  const redeemed = useRef(false);
  const started = useRef(false);

  // 1. the keyelement: redeemed once, then gone from the address bar and the history
  useEffect(() => {
    if (phase.kind !== 'redeeming' || redeemed.current || !keyelement || !appName) return;
    redeemed.current = true;
    const q = new URLSearchParams(window.location.search);
    q.delete('keyelement');
    q.delete('_');
    window.history.replaceState(null, '', `${PRODUCT_BASES[CURRENT_PRODUCT]}/?${q}`);
    const name = appName.trim().toLowerCase();
    void (async () => {
      try {
        const provider = await api.call('Customer.program', { query: { appName: name }, silent: true });
        // with the portal's session, not the application's (which may be another account's, or none)
        const portal = createApiClient({ getToken: storedPortalToken, getLocale: () => session.locale, releaseVersion: session.releaseVersion });
        const answer = await portal.call('Registration.applicationTokenRedeem', { body: { appName: name, keyelement, product: CURRENT_PRODUCT === 'parentportal' ? 'parentapplication' : CURRENT_PRODUCT }, silent: true });
        setSession((s) => ({
          ...signedOutSession(s),
          ...providerSessionFields(provider),
          ...answer.session,
          token: answer.token,
          locale: answer.locale,
          accessibilityTheme: answer.accessibilityTheme === 'high-contrast',
          sessionExpired: false,
          error: { statusCode: 0, message: '', show: false },
        }));
        setPhase({ kind: 'starting', programPeriodID: answer.programPeriodID });
      } catch (err) {
        setPhase({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
      }
    })();
  }, [phase.kind, keyelement, appName, api, setSession, session.locale, session.releaseVersion]);

  // 2. with the application's session: the draft for this program, started or resumed
  useEffect(() => {
    if (phase.kind !== 'starting' || started.current || !session.token) return;
    started.current = true;
    void (async () => {
      try {
        if (CURRENT_PRODUCT === 'calendar') {
          // the calendar keeps no draft: the child's month of the program
          navigate(`/dates?programPeriodID=${phase.programPeriodID}`, { replace: true });
          return;
        }
        if (CURRENT_PRODUCT === 'punchpass') {
          // a pass is bought from the passes offered, never on arrival: the passes and hers
          navigate('/passes', { replace: true });
          return;
        }
        if (CURRENT_PRODUCT === 'onetimeenrollment') {
          // the one-time enrolment: its summary, or its submission once submitted
          const ot = await api.call('Registration.oneTimeStart', { body: { programPeriodID: phase.programPeriodID }, silent: true });
          setSession((s) => setFlowValues(s, ot.key, { prAccountID: s.accountID ?? 0, programPeriodID: ot.programPeriodID, applicationTypeID: APPLICATION_TYPE.oneTime }));
          navigate(`${ot.status === 'submitted' ? '/submission' : '/summary'}?key=${ot.key}`, { replace: true });
          return;
        }
        const app = await api.call('ParentApplication.start', { body: { programPeriodID: phase.programPeriodID }, silent: true });
        setSession((s) => setFlowValues(s, app.key, { prAccountID: s.accountID ?? 0, programPeriodID: app.programPeriodID, applicationTypeID: app.applicationTypeID }));
        navigate(`${APPLICATION_STEP_ROUTES[app.step] ?? '/children'}?key=${app.key}`, { replace: true });
      } catch (err) {
        setPhase({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
      }
    })();
  }, [phase, session.token, api, setSession, navigate]);

  if (phase.kind === 'failed' || phase.kind === 'noHandOff') {
    return (
      <Alert.Root status={phase.kind === 'failed' ? 'error' : 'info'} role="alert" data-testid="application-entry-error">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{phase.kind === 'failed' ? phase.message : t('entry.noHandOff')}</Alert.Title>
          <Alert.Description>
            <Link href={`${PRODUCT_BASES.parentportal}/programlist`}>{t('entry.backToPortal')}</Link>
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  }
  return (
    <Center minH="40vh" data-testid="application-entry">
      <VStack gap="3">
        <Spinner size="lg" color="brand.solid" />
        <Text role="status">{t('entry.loading')}</Text>
      </VStack>
    </Center>
  );
}
