// Spec 2.1 /bluepayresponse and /ezceredirection: the parent is back from the gateway's page. The
// server checks the gateway's signature on the return, asks the gateway for the transaction and
// applies it once (Billing.paymentResult); the loader shows meanwhile. Approved: the receipt; declined
// or failed: the payment error page with the reason; cancelled: back where the payment started, which
// says so (?payment=cancelled). A refresh or a second visit asks again and gets the same answer:
// nothing is paid twice. A visit that is no gateway's return (no or a forged answer: a bookmark, a
// typed address) asks nothing or is refused, and says there is no payment here instead of waiting.
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { ApiError } from '../../api/client';
import { apiAtom, apiErrorHandlerAtom } from '../../state';
import { CURRENT_PRODUCT } from '../routing/screens';
// generated from the gateway adapters' registry (server/gateways/registry.ts) by npm run gen
import { GATEWAY_OF_ROUTE } from './gatewayRoutes.gen';
import { PaymentLateView, PaymentLoaderView, PaymentReturnProblemView } from './PaymentLoader';

/** The reasons the error page has words for (payment.failedReasonKnown lists the same); any other shows the general decline. */
export const KNOWN_REASONS = new Set([
  'DECLINED', 'CVV', 'EXPIRY', 'AVS', 'TIMEOUT', 'ERROR', 'FRAUD_AMOUNT', 'FRAUD_VELOCITY', 'FRAUD_EMAIL', 'FRAUD_IP', 'FRAUD_ADDRESS',
  'BANK_R01', 'BANK_R02', 'BANK_R03', 'BANK_R04', 'BANK_R05', 'BANK_R07', 'BANK_R09', 'BANK_R10', 'BANK_R16', 'BANK_R29',
  'BANK_A01', 'BANK_S01', 'BANK_U01', 'BANK_X01',
  // a saved card or account the gateway no longer keeps (its token refused)
  'TOKEN_REFUSED',
]);

const PENDING_RETRY_MS = 2000;
const RESULT_STATUSES = new Set(['APPROVED', 'DECLINED', 'ERROR', 'CANCELLED']);

/** Where the parent lands after cancelling on the gateway's page: where the payment started, told so. */
export function cancelledReturn(referrer: string): string {
  return `${referrer}${referrer.includes('?') ? '&' : '?'}payment=cancelled`;
}
/** The payment error page of a change's payment: its retry returns to the change's submission (spec 2.12). */
export function changePaymentFailed(referrer: string, reason: string): string {
  const key = new URLSearchParams(referrer.split('?')[1] ?? '').get('key') ?? '';
  return `/paymentfailed?reason=${reason}&from=submitchangeschedule&key=${key}`;
}
/** Asks after which a return the gateway signed as approved, still not applied, is 'recorded late' (spec 8.2). */
const LATE_AFTER_ASKS = 5;

export function PaymentResponse() {
  const api = useAtomValue(apiAtom);
  const [location, navigate] = useLocation();
  const search = useSearch();
  const asked = useRef(false);
  const [referrer, setReferrer] = useState('/paynow');
  const [late, setLate] = useState(false);
  // no gateway's return here (invalid), or its answer could not be checked now (unchecked)
  const [problem, setProblem] = useState<'invalid' | 'unchecked' | null>(null);
  const [round, setRound] = useState(0);
  const errorHandler = useAtomValue(apiErrorHandlerAtom);

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    const q = new URLSearchParams(search);
    if (!q.get('checkout') || !q.get('sig') || !RESULT_STATUSES.has(q.get('status') ?? '')) {
      setProblem('invalid');
      return;
    }
    const body = {
      gatewayCode: GATEWAY_OF_ROUTE[location] ?? 1,
      checkout: q.get('checkout') ?? '',
      transaction: q.get('transaction') ?? '',
      status: (q.get('status') ?? '') as 'APPROVED' | 'DECLINED' | 'ERROR' | 'CANCELLED',
      sig: q.get('sig') ?? '',
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    let asks = 0;
    const ask = async () => {
      asks++;
      // the gateway says it took the payment, the portal could not apply it yet: the reconciler will
      if (body.status === 'APPROVED' && asks > LATE_AFTER_ASKS) setLate(true);
      try {
        const r = await api.call('Billing.paymentResult', { body, silent: true });
        setReferrer(r.referrer);
        // an application's or a change's payment goes on in its flow (spec 2.12 origin submitchangeschedule)
        const application = r.purpose === 'APPLICATION';
        const change = r.purpose === 'CHANGE';
        if (r.status === 'CANCELLED') return navigate(cancelledReturn(change ? r.referrer.replace('/changeschedule/confirmation', '/changeschedule/submit') : r.referrer), { replace: true });
        if (r.status === 'APPROVED' && r.accountPaymentID) {
          // an application's payment goes on at its confirmation, a balance's at the receipt
          return navigate(application || change ? r.referrer : `/paymentreceipt?accountPaymentID=${r.accountPaymentID}`, { replace: true });
        }
        if (r.status === 'DECLINED' || r.status === 'ERROR') {
          const reason = KNOWN_REASONS.has(r.reasonCode) ? r.reasonCode : r.status === 'ERROR' ? 'ERROR' : 'DECLINED';
          if (change) return navigate(changePaymentFailed(r.referrer, reason), { replace: true });
          return navigate(application ? `${r.referrer}&payment=failed&reason=${reason}` : `/paymentfailed?reason=${reason}&from=paynow`, { replace: true });
        }
        // the gateway has no answer yet: ask again (the loader warns after 30 seconds), less often once late
        timer = setTimeout(() => void ask(), asks > LATE_AFTER_ASKS ? PENDING_RETRY_MS * 5 : PENDING_RETRY_MS);
      } catch (e) {
        // a return that fails its signature check or names no payment of this account: none here
        if (e instanceof ApiError && (e.status === 400 || e.status === 404 || e.status === 422)) return setProblem('invalid');
        // a lost session goes to its page; anything else may pass: the parent can check again
        if (e instanceof ApiError) errorHandler.handle?.(e);
        setProblem('unchecked');
      }
    };
    void ask();
    return () => clearTimeout(timer);
  }, [api, location, navigate, search, round, errorHandler]);

  if (problem) {
    const again = () => {
      asked.current = false;
      setProblem(null);
      setRound((n) => n + 1);
    };
    return (
      <PaymentReturnProblemView
        kind={problem}
        onPayNow={problem === 'invalid' && CURRENT_PRODUCT === 'parentportal' ? () => navigate('/paynow') : undefined}
        onRetry={problem === 'unchecked' ? again : undefined}
      />
    );
  }
  if (late) return <PaymentLateView onHome={() => navigate('/home')} />;
  return <PaymentLoaderView onBack={() => navigate(referrer)} />;
}
