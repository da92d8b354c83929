// A screen's declared modal: title, body, sections and actions in a dialog; the confirming actions
// run through onConfirm. Part of the ScreenModal chunk, loaded when a modal first opens (ScreenModal.tsx).
import { Box, CloseButton, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import { ActionButton } from './Actions';
import { useRuntimeT } from './i18n';
import type { RenderAction } from './kindProps';
import type { ModalModel } from '../engine/screen';
import { SectionView } from './Section';

/** A modal's confirming actions: `confirm`, or `confirm<Variant>` when the wording depends on a rule (Delete / OK). */
export function isConfirmAction(id: string): boolean {
  return id === 'confirm' || /^confirm[A-Z]/.test(id);
}

/** An open modal with its rules evaluated (the engine's ModalModel). */
export type ModalRender = ModalModel;

export default function ModalDialog({
  modal,
  onClose,
  onConfirm,
}: {
  modal: ModalRender;
  onClose: () => void;
  onConfirm?: (a: RenderAction) => Promise<void>;
}) {
  const { t, tk } = useRuntimeT();
  return (
    <Dialog.Root open onOpenChange={(e) => (!e.open ? onClose() : undefined)} role={onConfirm ? 'alertdialog' : 'dialog'} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-modal={modal.id} mx="4">
            <Dialog.Header>
              <Dialog.Title>{tk(modal.title)}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                {modal.body ? <Text>{tk(modal.body)}</Text> : null}
                {modal.sections.map((s) => (
                  <SectionView key={s.id} section={s} />
                ))}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Box display="flex" gap="3" flexWrap="wrap" justifyContent="flex-end">
                {modal.actions.map((a) => (
                  <ActionButton key={a.id} action={a} onRun={onConfirm && isConfirmAction(a.id) ? onConfirm : undefined} />
                ))}
              </Box>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('runtime:close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
