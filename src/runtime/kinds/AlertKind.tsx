// alert / notice: a message box. Options: text (key), title (key), params (bindings; a `{value,
// format}` parameter shows its value in that display format, e.g. a balance as money), status
// (info | warning | error | success). A notice is the quieter variant.
import { Alert } from '@chakra-ui/react';
import { useScreenRuntime } from '../context';
import { useRuntimeT } from '../i18n';
import { formatValue, type ValueFormat } from '../format';
import { isRecord } from '../guards';
import type { KindProps } from '../kindProps';

export default function AlertKind({ section, data }: KindProps<'alert' | 'notice'>) {
  const rt = useScreenRuntime();
  const { t, tk, locale } = useRuntimeT();
  const resolved = rt.resolve(section.params, { item: data });
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(resolved ?? {})) {
    params[k] = isRecord(v) && typeof v.format === 'string' && 'value' in v ? formatValue(v.value, v.format as ValueFormat, { locale, country: rt.country, t }) : v;
  }
  const status = section.status ?? 'info';
  const notice = section.kind === 'notice';
  return (
    <Alert.Root status={status} variant={notice ? 'subtle' : 'surface'} role={status === 'error' || status === 'warning' ? 'alert' : 'status'} data-status={status}>
      <Alert.Indicator />
      <Alert.Content>
        {section.heading ? <Alert.Title>{tk(section.heading, params)}</Alert.Title> : null}
        {section.text ? <Alert.Description>{tk(section.text, params)}</Alert.Description> : null}
      </Alert.Content>
    </Alert.Root>
  );
}
