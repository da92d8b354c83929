// Spec 2.5: the footer — help contacts, store badges and QR code (US), security seal, product version,
// detected browser and OS, privacy policy and Contact Us links. The screen's `footer` flags say which
// of Contact Us (default shown), the seal and the store badges (the sign-in page) it shows.
import { Box, Flex, HStack, Image, Link as ChakraLink, Stack, Text, chakra } from '@chakra-ui/react';
import { useAtomValue } from 'jotai';
import { atomWithQuery } from 'jotai-tanstack-query';
import { useMemo } from 'react';
import { useTranslation } from '../../runtime/texts';
import { Link } from 'wouter';
import { displayPhone } from '../../engine/formats';
import type { FooterDecl } from '../../engine/types';
import { apiAtom } from '../../state';
import { describeBrowser, detectBrowser } from '../boot/browserInfo';
import { BASE } from './Header';
import { useHasScreen, useProvider, useRule, useSession } from '../shellState';
import { Icon } from './Icon';
import { storeLinks } from '../boot/nativeApp';

const RouteLink = chakra(Link);

const productVersionAtom = atomWithQuery((get) => {
  const api = get(apiAtom);
  return {
    queryKey: ['Customer.version', { sourceApp: 'parentportal' }],
    queryFn: () => api.call('Customer.version', { query: { sourceApp: 'parentportal' }, silent: true }),
    staleTime: 30 * 60_000,
    retry: 1,
  };
});

function useProductVersion(): string | undefined {
  return useAtomValue(productVersionAtom).data?.version;
}

function QrCode({ text, label }: { text: string; label: string }) {
  // drawn by the server (an SVG image of fixed size): the page loads no QR encoder
  return <Image src={`${BASE}qr.svg?text=${encodeURIComponent(text)}`} alt={label} width="104" height="104" boxSize="6.5rem" bg="white" p="1" rounded="md" data-testid="app-qr-code" />;
}

export function StoreBadge({ href, icon, top, bottom }: { href: string; icon: string; top: string; bottom: string }) {
  return (
    <ChakraLink
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      data-button=""
      display="inline-flex"
      alignItems="center"
      gap="2"
      bg="black"
      color="white"
      px="3"
      py="1.5"
      rounded="lg"
      borderWidth="1px"
      borderColor="gray.500"
      textDecoration="none"
      _hover={{ bg: 'gray.800' }}
    >
      <Image src={icon} alt="" boxSize="6" />
      <Stack gap="0" lineHeight="1.1">
        <Text as="span" fontSize="2xs">
          {top}
        </Text>
        <Text as="span" fontSize="md" fontWeight="semibold">
          {bottom}
        </Text>
      </Stack>
    </ChakraLink>
  );
}

export function Footer({ flags = {} }: { flags?: FooterDecl }) {
  const { t } = useTranslation('common');
  const [session] = useSession();
  const provider = useProvider();
  const rule = useRule();
  const hasScreen = useHasScreen();
  const version = useProductVersion();
  const browser = useMemo(() => detectBrowser(typeof navigator === 'undefined' ? '' : navigator.userAgent), []);
  const programName = provider?.programName || session.programName;
  const supportPhone = provider?.supportPhone || session.supportPhone;
  const supportEmail = provider?.supportEmail || session.supportEmail;
  const nativeApp = rule('shell.nativeAppCountry');
  const stores = storeLinks(programName);

  return (
    <Box as="footer" borderTopWidth="1px" borderColor="border" bg="bg.subtle" mt="auto" px={{ base: '4', md: '6' }} py="6" fontSize="sm" data-testid="footer">
      <Flex direction={{ base: 'column', lg: 'row' }} gap="6" justify="space-between" align={{ base: 'stretch', lg: 'flex-start' }}>
        <Stack gap="2" maxW="xl">
          {supportPhone || supportEmail ? (
            <>
              <Text fontWeight="semibold">{t('footer.helpTitle', { program: programName || t('app.name') })}</Text>
              <Text color="fg.muted">{t('footer.helpNote')}</Text>
              {supportPhone ? (
                <HStack gap="2">
                  <Icon name="phone" />
                  <ChakraLink href={`tel:${supportPhone.replace(/[^\d+]/g, '')}`} aria-label={t('footer.callSupport', { phone: displayPhone(supportPhone) || supportPhone })}>
                    {displayPhone(supportPhone) || supportPhone}
                  </ChakraLink>
                </HStack>
              ) : null}
              {supportEmail ? (
                <HStack gap="2">
                  <Icon name="mail" />
                  <ChakraLink href={`mailto:${supportEmail}`} wordBreak="break-all">
                    {supportEmail}
                  </ChakraLink>
                </HStack>
              ) : null}
            </>
          ) : null}
          {flags.contactUs !== false && hasScreen('/contactus') ? (
            <RouteLink href="/contactus" fontWeight="semibold" data-testid="contact-us-link">
              {t('footer.contactUs')}
            </RouteLink>
          ) : null}
        </Stack>

        {flags.storeBadges && nativeApp ? (
          <Flex gap="4" align="center" wrap="wrap" data-testid="store-badges">
            <Stack gap="2">
              <Text fontWeight="semibold">{t('footer.getTheApp')}</Text>
              <HStack gap="2" wrap="wrap">
                <StoreBadge href={stores.android} icon={`${BASE}images/badges/google-play.svg`} top={t('footer.googlePlayTop')} bottom={t('footer.googlePlay')} />
                <StoreBadge href={stores.ios} icon={`${BASE}images/badges/app-store.svg`} top={t('footer.appStoreTop')} bottom={t('footer.appStore')} />
              </HStack>
            </Stack>
            <QrCode text={stores.qr} label={t('footer.qrLabel')} />
          </Flex>
        ) : null}

        {flags.securitySeal ? (
          <HStack gap="3" data-testid="security-seal">
            <Image src={`${BASE}images/security-seal.svg`} alt="" h="3.5rem" w="auto" />
            <Stack gap="0">
              <Text fontWeight="semibold">{t('footer.sealTitle')}</Text>
              <Text color="fg.muted">{t('footer.sealText')}</Text>
            </Stack>
          </HStack>
        ) : null}
      </Flex>

      <Flex mt="6" pt="4" borderTopWidth="1px" borderColor="border" gap={{ base: '2', md: '6' }} direction={{ base: 'column', md: 'row' }} color="fg.muted" wrap="wrap">
        <Text data-testid="product-version">{version ? t('footer.version', { version }) : t('footer.versionUnknown')}</Text>
        <Text data-testid="browser-info">{t('footer.browser', {
            browser: browser.browser === 'Unknown' ? t('footer.unknown') : describeBrowser(browser),
            os: browser.os === 'Unknown' ? t('footer.unknown') : browser.os,
          })}</Text>
        {/* spec 2.5: the provider's own privacy policy (provider.json privacyPolicyUrl, https), hidden when none */}
        {provider?.privacyPolicyUrl ? (
          <ChakraLink href={provider.privacyPolicyUrl} target="_blank" rel="noopener noreferrer" aria-label={`${t('footer.privacyPolicy')} ${t('a11y.newTab')}`} data-testid="privacy-policy-link">
            {t('footer.privacyPolicy')}
          </ChakraLink>
        ) : null}
        <Text>{t('footer.copyright', { year: new Date().getFullYear(), organisation: provider?.organisation || session.organisation || programName || t('app.name') })}</Text>
      </Flex>
    </Box>
  );
}
