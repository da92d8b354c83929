// Spec 2.4: the sign-out confirmation (loaded when sign out is first asked for, see SignOut.tsx).
import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { useTranslation } from '../../runtime/texts';

export default function SignOutDialog(props: { open: boolean; busy: boolean; onCancel: () => void; onConfirm: () => void }) {
  const { open, busy, onCancel, onConfirm } = props;
  const { t } = useTranslation('common');
  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && onCancel()} role="alertdialog" placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="signout-confirm">
            <Dialog.Header>
              <Dialog.Title>{t('signOut.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text>{t('signOut.message')}</Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel}>
                {t('action.cancel')}
              </Button>
              <Button colorPalette="brand" onClick={onConfirm} loading={busy} data-testid="signout-confirm-button">
                {t('menu.signOut')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
