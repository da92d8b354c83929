// One section of a screen with the four states of spec 4 / 8.1: loading (skeleton), loaded, empty
// ('no content' text) and error (a retry panel 'Unable to retrieve {section}' that reloads only this
// section's data; a network error hides its message).
import { Suspense } from 'react';
import { Alert, Box, Button, Heading, Skeleton, SkeletonText, Stack, Text } from '@chakra-ui/react';
import { ApiError } from '../api/client';
import { useScreenRuntime } from './context';
import { useRuntimeT } from './i18n';
import { ActionBar } from './Actions';
import { isLightForm, KindView } from './registry';
import { isEmptyData } from './format';
import type { RenderSection } from './kindProps';

/** Kinds that render without data or with their own empty view. */
const NO_EMPTY_STATE = new Set(['form', 'progress', 'text', 'alert', 'notice', 'links']);

export function SectionSkeleton() {
  return (
    <Stack gap="3" aria-hidden="true" data-state="loading">
      <Skeleton height="6" width="40%" />
      <SkeletonText noOfLines={3} />
    </Stack>
  );
}

/** A whole screen while its first loads are on their way (the layout keeps the footer below the fold). */
export function ScreenSkeleton() {
  return (
    <Stack gap="6" aria-hidden="true" data-state="loading">
      <SectionSkeleton />
      <SectionSkeleton />
      <SectionSkeleton />
    </Stack>
  );
}

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
const BUSY = { 'aria-busy': true, inert: true, opacity: 0.6 } as const;

export function SectionView({ section }: { section: RenderSection }) {
  const rt = useScreenRuntime();
  const { t, tk } = useRuntimeT();
  if (!section.visible) return null;
  const source = section.source;
  const state = source ? rt.data[source] : undefined;
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
    <Box as="section" id={`section-${section.id}`} aria-labelledby={section.title ? `${section.id}-title` : undefined} data-section={section.id} data-kind={section.kind} {...(state?.refreshing ? BUSY : undefined)}>
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
