// Spec 2.3: the profile panel — full name, e-mail, Change password and Sign out (loaded when the
// header's profile button is first used, see ProfilePanel.tsx). The button is the popover's trigger
// through its id: the panel is placed at it, a click on it is not "outside" and focus returns to it.
import { Box, Button, Popover, Portal, Stack } from '@chakra-ui/react';
import { useTranslation } from '../../runtime/texts';
import { Link } from 'wouter';
import { useHasScreen, useSession } from '../shellState';
import { useAskSignOut } from './SignOut';

export default function ProfilePopover(props: { open: boolean; onOpenChange: (open: boolean) => void; triggerId: string; fullName: string }) {
  const { open, onOpenChange, triggerId, fullName } = props;
  const { t } = useTranslation('common');
  const [session] = useSession();
  const askSignOut = useAskSignOut();
  const hasScreen = useHasScreen();
  return (
    <Popover.Root open={open} onOpenChange={(e) => onOpenChange(e.open)} positioning={{ placement: 'bottom-end' }} ids={{ trigger: triggerId }}>
      <Portal>
        <Popover.Positioner>
          <Popover.Content data-testid="profile-panel" maxW="xs">
            <Popover.Body>
              <Stack gap="3">
                <Box>
                  <Popover.Title fontWeight="bold">{fullName}</Popover.Title>
                  {/* the panel is described by the address signed in (the content names its description part) */}
                  <Popover.Description fontSize="sm" color="fg.muted" wordBreak="break-all">
                    {session.email}
                  </Popover.Description>
                </Box>
                {hasScreen('/changepassword') ? (
                  <Link href="/changepassword" onClick={() => onOpenChange(false)}>
                    {t('profile.changePassword')}
                  </Link>
                ) : null}
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => {
                    onOpenChange(false);
                    askSignOut();
                  }}
                >
                  {t('menu.signOut')}
                </Button>
              </Stack>
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
