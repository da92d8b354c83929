// One section of a screen with the four states of spec 4 / 8.1: loading (skeleton), loaded, empty
// ('no content' text) and error (a retry panel 'Unable to retrieve {section}' that reloads only this
// section's data; a network error hides its message).
import { Suspense, useEffect, useRef } from 'react';
import { Alert, Box, Button, Heading, Text } from '@chakra-ui/react';
import { ApiError } from '../api/client';
import { useScreenRuntime } from './context';
import { useRuntimeT } from './i18n';
import { ActionBar } from './Actions';
import { isLightForm, KindView } from './registry';
import { isEmptyData } from './format';
import type { RenderSection } from './kindProps';
import { SectionSkeleton } from './Skeletons';

/** Kinds that render without data or with their own empty view. */
const NO_EMPTY_STATE = new Set(['form', 'progress', 'text', 'alert', 'notice', 'links']);

export function RetryPanel({ label, error, onRetry }: { label: string; error: unknown; onRetry: () => void }) {
  const { t } = useRuntimeT();
  const network = error instanceof ApiError ? error.network : false;
  const message = !network && error instanceof Error ? error.message : '';
  return (
    <Alert.Root status="error" data-state="error" role="group" aria-label={t('runtime:unableToRetrieve', { section: label })}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{t('runtime:unableToRetrieve', { section: label })}</Alert.Title>
        {message ? <Alert.Description>{message}</Alert.Description> : null}
      </Alert.Content>
      <Button size="sm" variant="outline" onClick={onRetry}>
        {t('runtime:retry')}
      </Button>
    </Alert.Root>
  );
}

// A section showing its last answer while a changed form value is asked about (context.ts
// `refreshing`): dimmed, and not to be acted on (a payment method's old total, an old program list).
// A Tab pressed meanwhile passes it by; useTabCatchUp brings the focus back once the answer is in.
const BUSY = { 'aria-busy': true, inert: true, opacity: 0.6 } as const;

/** The last Tab pressed on the page: when, and from which element. */
let lastTab: { at: number; from: Element | null } = { at: 0, from: null };
if (typeof document !== 'undefined') {
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Tab' && !e.shiftKey) lastTab = { at: Date.now(), from: document.activeElement };
  }, true);
}
/** How long after a Tab a section that appears still takes the focus the Tab meant for it. */
const TAB_CATCH_UP_MS = 1500;
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A section whose content appears just after the parent pressed Tab on a field before it (a payment
 * method list answering a typed amount): the Tab went past where it now is, so the focus comes back
 * to its first control, as if it had been there when Tab was pressed.
 */
function useTabCatchUp(ref: React.RefObject<HTMLElement | null>, ready: boolean) {
  // a section that mounts ready (shown by its rule once the answer is in) counts as appearing
  const wasReady = useRef(false);
  useEffect(() => {
    const became = ready && !wasReady.current;
    wasReady.current = ready;
    const el = ref.current;
    if (!became || !el || Date.now() - lastTab.at > TAB_CATCH_UP_MS) return;
    const from = lastTab.from;
    if (!from || !(from instanceof HTMLElement) || !from.isConnected || el.contains(from)) return;
    // the Tab started before this section, and the focus is now past it (or nowhere)
    if (!(from.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) return;
    const active = document.activeElement;
    const past = !active || active === document.body || Boolean(el.compareDocumentPosition(active) & Node.DOCUMENT_POSITION_FOLLOWING);
    if (!past) return;
    el.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    lastTab = { at: 0, from: null };
  }, [ready, ref]);
}

export function SectionView({ section }: { section: RenderSection }) {
  const rt = useScreenRuntime();
  const { t, tk } = useRuntimeT();
  const source = section.source;
  const state = source ? rt.data[source] : undefined;
  const ref = useRef<HTMLElement | null>(null);
  useTabCatchUp(ref, section.visible && (!source || (state?.status === 'success' && !state.refreshing)));
  if (!section.visible) return null;
  const load = source ? rt.screen.data?.[source] : undefined;

  let body: React.ReactNode;
  if (source && !state) {
    // a load switched off by its `when` rule: the section has nothing to show
    return null;
  } else if (state?.status === 'idle') {
    return null;
  } else if (state?.status === 'pending') {
    body = <SectionSkeleton />;
  } else if (state?.status === 'error') {
    body = <RetryPanel label={tk(load?.label ?? section.title ?? '')} error={state.error} onRetry={state.refetch} />;
  } else if (source && isEmptyData(state?.data) && !NO_EMPTY_STATE.has(section.kind)) {
    body = (
      <Text color="fg.muted" data-state="empty">
        {section.empty ? tk(String(section.empty)) : t('runtime:noContent')}
      </Text>
    );
  } else {
    body = (
      <Suspense fallback={<SectionSkeleton />}>
        <KindView section={section} data={state?.data} />
      </Suspense>
    );
  }

  return (
    <Box as="section" ref={ref} id={`section-${section.id}`} aria-labelledby={section.title ? `${section.id}-title` : undefined} data-section={section.id} data-kind={section.kind} {...(state?.refreshing ? BUSY : undefined)}>
      {section.title ? (
        <Heading as="h2" size="md" id={`${section.id}-title`} mb="3">
          {tk(section.title)}
        </Heading>
      ) : null}
      {body}
      {state?.status === 'error' || isLightForm(section) ? null : <ActionBar actions={section.actions} />}
    </Box>
  );
}
