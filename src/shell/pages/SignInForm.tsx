// Spec 2.6 sign-in form. The fields, their titles and their validation are the declared form schema
// "signin" run through the engine (the same declarations the server validates the body with); the
// shell renders it because the login body also carries the chosen provider (appName), which is
// session state rather than a form field. Success stores the token and the session fields and goes to
// /postlogin; a wrong password or a locked account shows in the page's danger banner (spec 8.1).
import { Button, Field, HStack, Input, Stack, Text, chakra } from '@chakra-ui/react';
import { atom, useAtomValue } from 'jotai';
import { loadable } from 'jotai/utils';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { FieldError } from '../../engine/form';
import { translate } from '../../runtime/i18n';
import { apiAtom, formEngineAtom } from '../../state';
import { useProvider, useSession } from '../hooks';

const engineLoadable = loadable(formEngineAtom);
const notWanted = atom({ state: 'loading' as const });
const FIELDS = ['email', 'password'] as const;
type Values = Record<(typeof FIELDS)[number], string>;

export function SignInForm() {
  const { t } = useTranslation(['common', 'fields', 'errors', 'screens']);
  // the provider's validators load once the parent turns to the form (focus, pointer or submit), so
  // the first paint of the page does not wait for them; a submit before they arrive waits for them
  const [wanted, setWanted] = useState(false);
  const [pending, setPending] = useState(false);
  const engineState = useAtomValue(wanted ? engineLoadable : notWanted);
  const engine = engineState.state === 'hasData' ? engineState.data : null;
  const api = useAtomValue(apiAtom);
  const [session, setSession] = useSession();
  const provider = useProvider();
  const [, navigate] = useLocation();
  const [values, setValues] = useState<Values>({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [pageError, setPageError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refs = { email: useRef<HTMLInputElement>(null), password: useRef<HTMLInputElement>(null) };

  const ctx = () => ({ session: session as unknown as Record<string, unknown>, provider: (provider ?? {}) as Record<string, unknown>, query: {}, data: {}, form: values });
  const errorOf = (name: string) => errors.find((e) => e.field === name);

  useEffect(() => {
    if (pending && engineState.state === 'hasError') setPending(false);
    if (pending && engine) {
      setPending(false);
      void send();
    }
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    setWanted(true);
    if (busy) return;
    if (!engine) setPending(true);
    else void send();
  }

  async function send() {
    if (!engine) return;
    const result = engine.validate('signin', values, ctx());
    setErrors(result.errors);
    if (!result.valid) {
      setPageError(result.pageError ?? 'errors.pageLevel');
      const first = result.errors[0]?.field as keyof typeof refs | undefined;
      if (first && refs[first]) refs[first].current?.focus();
      return;
    }
    setPageError(null);
    setBusy(true);
    try {
      const answer = await api.call('Authentication.login', {
        body: { appName: session.appName, email: String(result.data.email), password: String(result.data.password) },
      });
      // the language chosen on this page stays (the account's language is only a default)
      const { locale: _accountLocale, ...fields } = answer.session;
      setSession((s) => ({
        ...s,
        ...fields,
        token: answer.token,
        sessionExpired: false,
        error: { statusCode: 0, message: '', show: false },
      }));
      navigate('/postlogin', { replace: true });
    } catch {
      // the error handler shows the server's message in the banner; the password is typed again
      setValues((v) => ({ ...v, password: '' }));
      refs.password.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  const title = (name: string) => translate(t, `fields.signin.${name}`);

  return (
    <chakra.form onSubmit={submit} onFocus={() => setWanted(true)} onPointerDown={() => setWanted(true)} noValidate maxW="md" data-testid="signin-form" aria-label={t('screens:signin.formTitle')}>
      <Stack gap="4">
        {pageError ? (
          <Text color="fg.error" role="alert">
            {translate(t, pageError)}
          </Text>
        ) : null}
        {FIELDS.map((name) => {
          const err = errorOf(name);
          return (
            <Field.Root key={name} invalid={Boolean(err)} required>
              <Field.Label>
                {title(name)}
                <Field.RequiredIndicator />
              </Field.Label>
              <Input
                ref={refs[name]}
                name={name}
                type={name === 'password' ? 'password' : 'email'}
                autoComplete={name === 'password' ? 'current-password' : 'username'}
                inputMode={name === 'email' ? 'email' : undefined}
                value={values[name]}
                onChange={(ev) => {
                  const v = ev.currentTarget.value;
                  setValues((prev) => ({ ...prev, [name]: v }));
                  if (err) setErrors((prev) => prev.filter((x) => x.field !== name));
                }}
              />
              {err ? <Field.ErrorText>{translate(t, err.key, err.params)}</Field.ErrorText> : null}
            </Field.Root>
          );
        })}
        <HStack>
          <Button type="submit" colorPalette="brand" loading={busy || pending} disabled={engineState.state === 'hasError'} data-testid="signin-submit">
            {t('screens:signin.signIn')}
          </Button>
        </HStack>
      </Stack>
    </chakra.form>
  );
}
