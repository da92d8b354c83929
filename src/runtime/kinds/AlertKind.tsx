// alert / notice: a message box. Options: text (key), title (key), params (bindings), status
// (info | warning | error | success). A notice is the quieter variant.
import { Alert } from '@chakra-ui/react';
import { useScreenRuntime } from '../context';
import { useRuntimeT } from '../i18n';
import type { KindProps } from '../kindProps';

export default function AlertKind({ section, data }: KindProps<'alert' | 'notice'>) {
  const rt = useScreenRuntime();
  const { tk } = useRuntimeT();
  const params = rt.resolve(section.params, { item: data });
  const status = section.status ?? 'info';
  const notice = section.kind === 'notice';
  return (
    <Alert.Root status={status} variant={notice ? 'subtle' : 'surface'} role={status === 'error' || status === 'warning' ? 'alert' : 'status'}>
      <Alert.Indicator />
      <Alert.Content>
        {section.heading ? <Alert.Title>{tk(section.heading, params)}</Alert.Title> : null}
        {section.text ? <Alert.Description>{tk(section.text, params)}</Alert.Description> : null}
      </Alert.Content>
    </Alert.Root>
  );
}
