// Pages that must work before a provider is chosen (an unknown program address, a missing page, a
// configuration error). The runtime renders screens from a provider's declaration set, which does not
// exist yet, so the shell renders these itself from their screen declarations' translation keys.
import { Alert, Box, Button, Card, Field, Heading, HStack, Input, SimpleGrid, Spinner, Stack, Text, chakra } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { queryClientAtom } from 'jotai-tanstack-query';
import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../runtime/texts';
import { Link, useLocation, useSearch } from 'wouter';
import { email as isEmail } from '../../engine/formats';
import { translate } from '../../runtime/i18n';
import { apiAtom } from '../../state';
import { useSession } from '../shellState';

const RouteLink = chakra(Link);

function NextLinks() {
  const { t } = useTranslation('screens');
  const [session] = useSession();
  return session.token ? <RouteLink href="/home">{t('notfound.home')}</RouteLink> : <RouteLink href="/">{t('notfound.signin')}</RouteLink>;
}

export function NotFoundPage() {
  const { t } = useTranslation('screens');
  return (
    <Stack gap="4" data-testid="not-found">
      <Text fontSize="lg">{t('notfound.message')}</Text>
      <Box>
        <NextLinks />
      </Box>
    </Stack>
  );
}

/** The product kinds a hand-off names on the configuration error page (spec 2.1). */
const PRODUCT_KINDS = new Set(['parentapplication', 'calendar', 'onetimeenrollment', 'punchpass']);

export function ConfigurationErrorPage({ errorcode, productname }: { errorcode?: string; productname?: string }) {
  const { t } = useTranslation('screens');
  const code = errorcode || '—';
  // a product kind of spec 2.1 (the hand-off's) by its name in the reader's language; anything else as given
  const product = productname && PRODUCT_KINDS.has(productname) ? t(`configurationerror.products.${productname}`) : productname || '—';
  return (
    <Stack gap="5" data-testid="configuration-error">
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{t('configurationerror.heading')}</Alert.Title>
          <Alert.Description overflowWrap="anywhere">{t('configurationerror.message', { code, product })}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
      {/* a long code (PRODUCT_HOST_MISSING) wraps on a phone instead of pushing past the screen */}
      <chakra.dl display="grid" gridTemplateColumns="max-content minmax(0, 1fr)" columnGap="6" rowGap="2">
        <chakra.dt fontWeight="semibold">{t('configurationerror.code')}</chakra.dt>
        <chakra.dd m="0" overflowWrap="anywhere">
          {code}
        </chakra.dd>
        <chakra.dt fontWeight="semibold">{t('configurationerror.product')}</chakra.dt>
        <chakra.dd m="0">{product}</chakra.dd>
      </chakra.dl>
      <Box>
        <NextLinks />
      </Box>
    </Stack>
  );
}

function ProviderCards({ providers, testId }: { providers: Array<{ appName: string; programName: string }>; testId: string }) {
  const { t } = useTranslation('screens');
  return (
    <SimpleGrid as="ul" listStyleType="none" columns={{ base: 1, md: 2 }} gap="4" data-testid={testId}>
      {providers.map((p) => (
        <chakra.li key={p.appName}>
          <Card.Root variant="outline" height="full">
            <Card.Body gap="3">
              <Heading as="h3" size="md">
                {p.programName}
              </Heading>
              <Box>
                <RouteLink href={`/${encodeURIComponent(p.appName)}/parent`} aria-label={`${t('invalidurl.goToSignIn')}: ${p.programName}`}>
                  {t('invalidurl.goToSignIn')}
                </RouteLink>
              </Box>
            </Card.Body>
          </Card.Root>
        </chakra.li>
      ))}
    </SimpleGrid>
  );
}

/** Spec 2.1 /invalidurl: find the provider by the account's e-mail, or pick it from the list. */
export function InvalidUrlPage() {
  const { t } = useTranslation(['screens', 'fields', 'errors']);
  const api = useAtomValue(apiAtom);
  const search = useSearch();
  const [, navigate] = useLocation();
  const searched = new URLSearchParams(search).get('email') ?? '';
  const [value, setValue] = useState(searched);
  const [error, setError] = useState<string | null>(null);

  const queryClient = useAtomValue(queryClientAtom);
  const providers = useQuery({ queryKey: ['Customer.providers'], queryFn: () => api.call('Customer.providers'), staleTime: 5 * 60_000 }, queryClient);
  const matches = useQuery({
    queryKey: ['Customer.application', { parentemail: searched }],
    queryFn: () => api.call('Customer.application', { query: { parentemail: searched } }),
    enabled: Boolean(searched),
    retry: false,
  }, queryClient);

  function submit(e: FormEvent) {
    e.preventDefault();
    const v = value.trim();
    const field = 'fields.findProvider.email';
    // the same checks as the declared form schema findProvider: required, e-mail format
    if (!v) return setError(translate(t, 'errors.required', { field }));
    if (!isEmail(v)) return setError(translate(t, 'errors.format.email', { field }));
    setError(null);
    navigate(`/invalidurl?email=${encodeURIComponent(v)}`, { replace: true });
  }

  return (
    <Stack gap="8" data-testid="invalid-url">
      <Alert.Root status="warning">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{t('screens:invalidurl.heading')}</Alert.Title>
          <Alert.Description>{t('screens:invalidurl.message')}</Alert.Description>
        </Alert.Content>
      </Alert.Root>

      <chakra.form onSubmit={submit} noValidate maxW="md" aria-labelledby="pp-find-title">
        <Stack gap="3">
          <Heading as="h2" size="lg" id="pp-find-title">
            {t('screens:invalidurl.findTitle')}
          </Heading>
          <Field.Root invalid={Boolean(error)} required>
            <Field.Label>
              {t('fields:findProvider.email')}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input name="email" type="email" autoComplete="email" value={value} onChange={(e) => setValue(e.currentTarget.value)} />
            {error ? <Field.ErrorText>{error}</Field.ErrorText> : null}
          </Field.Root>
          <HStack>
            <Button type="submit" colorPalette="brand" loading={matches.isFetching} data-testid="find-provider">
              {t('screens:invalidurl.find')}
            </Button>
          </HStack>
        </Stack>
      </chakra.form>

      {searched ? (
        <Stack as="section" gap="3" aria-labelledby="pp-matches-title">
          <Heading as="h2" size="lg" id="pp-matches-title">
            {t('screens:invalidurl.matches')}
          </Heading>
          {matches.isPending ? (
            <Spinner color="brand.solid" aria-label={t('common:status.loading')} />
          ) : matches.data?.length ? (
            <ProviderCards providers={matches.data} testId="provider-matches" />
          ) : matches.isSuccess ? (
            <Text color="fg.muted">{t('screens:invalidurl.noneFound')}</Text>
          ) : null}
        </Stack>
      ) : null}

      <Stack as="section" gap="3" aria-labelledby="pp-providers-title">
        <Heading as="h2" size="lg" id="pp-providers-title">
          {t('screens:invalidurl.providers')}
        </Heading>
        {providers.isPending ? (
          <Spinner color="brand.solid" aria-label={t('common:status.loading')} />
        ) : providers.data?.length ? (
          <ProviderCards providers={providers.data} testId="provider-list" />
        ) : providers.isSuccess ? (
          <Text color="fg.muted">{t('screens:invalidurl.noProviders')}</Text>
        ) : null}
      </Stack>
    </Stack>
  );
}
