// countdown: the time left until a moment, counted down each second (the seats an application holds
// while the parent pays, amendment 7). A screen reader reads it when focused, not every second.
import { Alert } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useScreenRuntime } from '../context';
import { useRuntimeT } from '../i18n';
import type { KindProps } from '../kindProps';

export default function CountdownKind({ section, data }: KindProps<'countdown'>) {
  const rt = useScreenRuntime();
  const { tk } = useRuntimeT();
  const until = rt.resolve({ until: section.until }, data === undefined ? undefined : { item: data }).until;
  const end = typeof until === 'string' ? Date.parse(until) : NaN;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!Number.isFinite(end)) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [end]);
  if (!Number.isFinite(end)) return null;
  const left = Math.max(0, Math.floor((end - now) / 1000));
  const text = left > 0 ? tk(section.text, { minutes: Math.floor(left / 60), seconds: String(left % 60).padStart(2, '0') }) : tk(section.expired);
  return (
    <Alert.Root status={left > 0 ? (section.status ?? 'warning') : 'error'} data-state={left > 0 ? 'running' : 'ended'}>
      <Alert.Indicator />
      <Alert.Description role="timer" data-testid="countdown">
        {text}
      </Alert.Description>
    </Alert.Root>
  );
}
