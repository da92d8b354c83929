// A change of schedule's per-child tools (spec 2.11 change-schedule request): the schedule in force
// ('view existing schedule': per activity its site, a de-enrolled marker, the days and the timing, or
// the no-enrolment message), copying the chosen schedule to the other children, and the child's site
// with its change-site dialog (the site mandatory; spec 7.5 change site keeps it in the request at once).
// The activity picker draws them above a change's activities (its row's siteID is the site).
import { Box, Button, CloseButton, Dialog, HStack, NativeSelect, Portal, Stack, Text, chakra } from '@chakra-ui/react';
import { useAtomValue } from 'jotai';
import { useId, useState, type ReactNode } from 'react';
import { localeAtom } from '../../state';
import { dateInLanguage } from '../../engine/formats';
import type { Response } from '../../api/client';
import type { PortalFormContext } from './FormContext';

type ChangeAnswer = Response<'Registration.changeActivities'>;
interface Row {
  prChildID?: unknown;
  fullName?: unknown;
  noChange?: unknown;
  siteID?: unknown;
  selections?: unknown;
}

/** The form's rows (one per child) with one row patched. */
function patchRow(fc: PortalFormContext, prChildID: number, patch: (r: Row) => Row): void {
  const rows = (fc.getContext().form as { children?: Row[] } | undefined)?.children ?? [];
  fc.setFields({ children: rows.map((r) => (Number(r.prChildID) === prChildID ? patch(r) : r)) });
}

function SimpleDialog({ title, onClose, children, footer, testId }: { title: string; onClose: () => void; children: ReactNode; footer: ReactNode; testId: string }) {
  return (
    <Dialog.Root open onOpenChange={(e) => (!e.open ? onClose() : undefined)} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4" data-testid={testId}>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>{children}</Dialog.Body>
            <Dialog.Footer>{footer}</Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** 'View existing schedule' and 'Copy schedule to other children' of one child. */
export function ScheduleTools({ fc, id, prChildID, answer, selections, disabled }: { fc: PortalFormContext; id: string; prChildID: number; answer: ChangeAnswer; selections: unknown[]; disabled: boolean }) {
  const locale = useAtomValue(localeAtom);
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState<number | null>(null);
  const tk = fc.tk;
  const row = fc.rowOf(id) ?? {};
  const name = String(row.fullName ?? '');
  const others = ((fc.getContext().form as { children?: Row[] } | undefined)?.children ?? []).filter((r) => Number(r.prChildID) !== prChildID);
  const copy = () => {
    const rows = (fc.getContext().form as { children?: Row[] } | undefined)?.children ?? [];
    fc.setFields({ children: rows.map((r) => (Number(r.prChildID) === prChildID ? r : { ...r, noChange: false, siteID: row.siteID ?? null, selections: selections.map((x) => ({ ...(x as object) })) })) });
    setCopied(others.length);
  };
  const days = (codes: string[]) => codes.map((d) => fc.t(`runtime:weekdays.long.${d}`)).join(', ');
  return (
    <Stack gap="2">
      <HStack gap="3" wrap="wrap">
        <Button variant="outline" size="sm" onClick={() => setOpen(true)} data-testid={`existing-${prChildID}`}>
          {tk('changeSchedule.existing.open')}
        </Button>
        {others.length ? (
          <Button variant="outline" size="sm" disabled={disabled || !selections.length} onClick={copy} data-testid={`copy-${prChildID}`}>
            {tk('changeSchedule.copy.action')}
          </Button>
        ) : null}
      </HStack>
      <Box role="status" aria-live="polite">
        {copied !== null ? <Text fontSize="sm">{tk('changeSchedule.copy.done', { count: copied })}</Text> : null}
      </Box>
      {open ? (
        <SimpleDialog
          testId="existing-schedule"
          title={tk('changeSchedule.existing.title', { name })}
          onClose={() => setOpen(false)}
          footer={
            <Button variant="solid" onClick={() => setOpen(false)}>
              {tk('application.enrollment.close')}
            </Button>
          }
        >
          {answer.current.length ? (
            <Stack as="ul" listStyleType="none" m="0" p="0" gap="3">
              {answer.current.map((c) => (
                <Box as="li" key={`${c.activityID}-${c.enrollmentDate}`} borderTopWidth="1px" borderColor="border.muted" pt="2">
                  <Text fontWeight="semibold">{c.activity}</Text>
                  <chakra.dl display="grid" gridTemplateColumns="auto 1fr" columnGap="3" rowGap="1" fontSize="sm">
                    <chakra.dt fontWeight="medium">{tk('changeSchedule.existing.site')}</chakra.dt>
                    <chakra.dd m="0">{c.siteName}</chakra.dd>
                    <chakra.dt fontWeight="medium">{tk('changeSchedule.existing.days')}</chakra.dt>
                    <chakra.dd m="0">{days(c.daysOfWeek)}</chakra.dd>
                    <chakra.dt fontWeight="medium">{tk('changeSchedule.existing.timing')}</chakra.dt>
                    <chakra.dd m="0">{c.timing}</chakra.dd>
                  </chakra.dl>
                  {c.deEnrollDate ? (
                    <Text fontSize="sm" color="fg.warning" data-testid="deenrolled">
                      {tk('changeSchedule.existing.deEnrolled', { date: dateInLanguage(c.deEnrollDate, locale) })}
                    </Text>
                  ) : null}
                </Box>
              ))}
            </Stack>
          ) : (
            <Text>{tk('changeSchedule.existing.none', { name })}</Text>
          )}
        </SimpleDialog>
      ) : null}
    </Stack>
  );
}

/**
 * The child's site for the new schedule: its name and Change site, a dialog whose site list must be
 * chosen from; the site is kept in the request at once (spec 7.5 change site) and the schedule chosen
 * at another site cleared. `onChanged` tells the picker to draw the new site's activities.
 */
export function SiteLine({ fc, id, prChildID, answer, siteID, disabled, onChanged }: { fc: PortalFormContext; id: string; prChildID: number; answer: ChangeAnswer; siteID: number | null; disabled: boolean; onChanged: () => void }) {
  const selectId = useId();
  const errorId = useId();
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const row = fc.rowOf(id) ?? {};
  const key = String((fc.getContext().query as Record<string, unknown>).key ?? '');
  const tk = fc.tk;
  const sites = answer.sites;
  const name = sites.find((st) => st.siteID === siteID)?.siteName;
  const confirm = async () => {
    const chosen = Number(choice);
    if (!chosen) {
      setProblem(tk('application.errors.change.siteRequired'));
      return;
    }
    setBusy(true);
    try {
      await fc.api.call('Registration.changeSite', { query: { key }, body: { prChildID, siteID: chosen } });
      fc.touch(id);
      if (chosen !== siteID) patchRow(fc, prChildID, (r) => ({ ...r, noChange: false, siteID: chosen, selections: [] }));
      setOpen(false);
      onChanged();
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="1">
      <Text fontWeight="medium">{tk('changeSchedule.children.site')}</Text>
      <HStack gap="3" wrap="wrap">
        <Text data-testid={`site-${prChildID}`}>{name ?? tk('changeSchedule.site.none')}</Text>
        <Button
          variant="outline"
          size="sm"
          disabled={disabled || !sites.length}
          onClick={() => {
            setChoice(siteID ? String(siteID) : '');
            setProblem(null);
            setOpen(true);
          }}
          data-testid={`change-site-${prChildID}`}
        >
          {tk('changeSchedule.site.change')}
        </Button>
      </HStack>
      {open ? (
        <SimpleDialog
          testId="change-site"
          title={tk('changeSchedule.site.title', { name: String(row.fullName ?? '') })}
          onClose={() => setOpen(false)}
          footer={
            <HStack gap="2">
              <Button variant="outline" onClick={() => setOpen(false)}>
                {tk('changeSchedule.site.cancel')}
              </Button>
              <Button variant="solid" loading={busy} onClick={() => void confirm()} data-testid="change-site-ok">
                {tk('changeSchedule.site.ok')}
              </Button>
            </HStack>
          }
        >
          <Stack gap="2">
            <chakra.label htmlFor={selectId} fontWeight="medium">
              {tk('changeSchedule.site.label')}
              <chakra.span color="fg.error" aria-hidden="true">
                {' *'}
              </chakra.span>
            </chakra.label>
            <NativeSelect.Root invalid={Boolean(problem)}>
              <NativeSelect.Field
                id={selectId}
                value={choice}
                aria-required="true"
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? errorId : undefined}
                onChange={(e) => {
                  setChoice(e.currentTarget.value);
                  setProblem(null);
                }}
              >
                <option value="">{tk('fields.common.select')}</option>
                {sites.map((st) => (
                  <option key={st.siteID} value={st.siteID}>
                    {st.siteName}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            {problem ? (
              <Text id={errorId} color="fg.error" fontSize="sm" role="alert">
                {problem}
              </Text>
            ) : null}
          </Stack>
        </SimpleDialog>
      ) : null}
    </Stack>
  );
}
