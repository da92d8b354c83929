// Spec 2.3: the signed-in header shows the parent's photo (or the first-letter initial in a circle);
// it opens a panel with full name, e-mail, Change password and Sign out.
import { Button, Circle, Image } from '@chakra-ui/react';
import { atom, useAtomValue } from 'jotai';
import { atomWithQuery } from 'jotai-tanstack-query';
import { Suspense, useId, useState } from 'react';
import { useTranslation } from '../../runtime/texts';
import { operations } from '../../api/client';
import { apiAtom, sessionAtom, signedInAtom } from '../../state';
import { useSession } from '../shellState';
import { lazyWhenOnline } from '../../runtime/whenOnline';

/** The GET operation of the contract that answers an adult's photo (/adults/:adultid/photo), if any. */
const ADULT_PHOTO_OP = Object.entries(operations as Record<string, { method: string; path: string }>).find(
  ([, o]) => o.method === 'GET' && /^\/adults\/[:{]\w+\}?\/photo$/i.test(o.path),
);

/** A blob as a data: URL with its own type (the server answers the photo as image/jpeg bytes). */
function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

const adultIdAtom = atom((get) => get(sessionAtom).adultID);

/** Whether the signed-in parent has a photo (Customer.parent). */
const hasPhotoAtom = atomWithQuery((get) => {
  const api = get(apiAtom);
  return {
    queryKey: ['Customer.parent'],
    queryFn: () => api.call('Customer.parent', { silent: true }),
    enabled: get(signedInAtom) && Boolean(ADULT_PHOTO_OP),
    retry: false,
    staleTime: 10 * 60_000,
  };
});

/** The parent's photo when the account has one; otherwise the initial is shown. */
const profilePhotoAtom = atomWithQuery((get) => {
  const api = get(apiAtom);
  const adultID = get(adultIdAtom);
  const hasPhoto = Boolean(get(hasPhotoAtom).data?.hasPhoto);
  const op = ADULT_PHOTO_OP?.[0];
  const param = ADULT_PHOTO_OP ? /[:{](\w+)/.exec(ADULT_PHOTO_OP[1].path)?.[1] ?? 'adultid' : 'adultid';
  return {
    queryKey: [op, { adultID }],
    // the answer is the image file itself: read it as bytes, never as text
    queryFn: async () => {
      const files = api as unknown as { fetchFile(op: string, args: unknown): Promise<{ blob: Blob; type: string }> };
      const file = await files.fetchFile(op as string, { params: { [param]: adultID }, silent: true });
      return file.type.startsWith('image/') ? dataUrlOf(file.blob.type ? file.blob : new Blob([file.blob], { type: file.type })) : null;
    },
    enabled: Boolean(op && adultID && hasPhoto),
    retry: false,
    staleTime: 10 * 60_000,
  };
});

// the panel (popover machine, floating positioning) loads when the button is first used
const ProfilePopover = lazyWhenOnline(() => import('./ProfilePopover'));

export function ProfileButton() {
  const { t } = useTranslation('common');
  const [session] = useSession();
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const triggerId = `pp-profile-button${useId()}`;
  const photoData = useAtomValue(profilePhotoAtom).data;
  const photo = typeof photoData === 'string' ? photoData : undefined;
  const fullName = [session.firstName, session.lastName].filter(Boolean).join(' ');
  const initial = (session.firstName || session.email || '?').trim().charAt(0).toUpperCase();

  return (
    <>
      <Button
        id={triggerId}
        variant="ghost"
        rounded="full"
        p="0"
        minW="10"
        h="10"
        aria-label={t('profile.open', { name: fullName })}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-state={open ? 'open' : 'closed'}
        data-testid="profile-button"
        onClick={() => {
          setUsed(true);
          setOpen(!open);
        }}
      >
        {photo ? (
          <Image src={photo} alt="" boxSize="10" rounded="full" objectFit="cover" />
        ) : (
          <Circle size="10" bg="brand.solid" color="brand.contrast" fontWeight="bold" fontSize="lg" aria-hidden="true">
            {initial}
          </Circle>
        )}
      </Button>
      {used ? (
        <Suspense fallback={null}>
          <ProfilePopover open={open} onOpenChange={setOpen} triggerId={triggerId} fullName={fullName} />
        </Suspense>
      ) : null}
    </>
  );
}
