// Spec 2.3 and 4 "Language": a two-language switch when the provider offers two languages, a dropdown
// when there are more; switching updates the session locale, i18n, <html lang> and the cookie.
import { Button, Group, NativeSelect } from '@chakra-ui/react';
import { useTranslation } from '../../runtime/texts';
import { useProvider, useSession } from '../shellState';
import { switchLanguage } from '../language/language';
import { SUPPORTED_LOCALES } from '../language/locale';

export function useLanguages() {
  const [session] = useSession();
  const provider = useProvider();
  const offered = provider?.languages?.length ? provider.languages : session.locales;
  // only languages the portal has translations for
  return offered.filter((l) => (SUPPORTED_LOCALES as readonly string[]).includes(l.code));
}

export function useChangeLanguage() {
  const [, setSession] = useSession();
  return async (code: string) => {
    const lng = await switchLanguage(code);
    setSession((s) => ({ ...s, locale: lng }));
  };
}

export function LanguageSwitch({ id = 'pp-language' }: { id?: string }) {
  const { t } = useTranslation('common');
  const [session] = useSession();
  const languages = useLanguages();
  const change = useChangeLanguage();
  if (languages.length < 2 || session.isMultiLanguageSupport === false) return null;

  if (languages.length === 2) {
    return (
      <Group attached role="group" aria-label={t('language.label')} data-testid="language-switch">
        {languages.map((l) => {
          const active = l.code === session.locale;
          return (
            <Button
              key={l.code}
              size="xs"
              variant={active ? 'solid' : 'outline'}
              colorPalette="brand"
              aria-pressed={active}
              lang={l.code}
              onClick={() => void change(l.code)}
            >
              {l.name}
            </Button>
          );
        })}
      </Group>
    );
  }

  return (
    <NativeSelect.Root size="sm" width="auto" data-testid="language-switch">
      <NativeSelect.Field
        id={id}
        aria-label={t('language.label')}
        value={session.locale}
        onChange={(e) => void change(e.currentTarget.value)}
      >
        {languages.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
