// Action buttons: visible/enabled by their rules; a running action shows as loading and cannot be
// pressed twice.
import { useState } from 'react';
import { Button, Wrap } from '@chakra-ui/react';
import type { RuleContext } from '../engine/form';
import { useScreenRuntime } from './context';
import { useRuntimeT } from './i18n';
import type { RenderAction } from './kindProps';

const VARIANTS: Record<string, { variant: 'solid' | 'outline' | 'plain'; colorPalette?: string }> = {
  primary: { variant: 'solid' },
  secondary: { variant: 'outline' },
  link: { variant: 'plain' },
  danger: { variant: 'solid', colorPalette: 'red' },
};

export function ActionButton({ action, extra, onRun, about }: { action: RenderAction; extra?: Partial<RuleContext>; onRun?: (a: RenderAction) => Promise<void>; /** id of what it acts on */ about?: string }) {
  const rt = useScreenRuntime();
  const { tk } = useRuntimeT();
  const [running, setRunning] = useState(false);
  if (!action.visible) return null;
  const v = VARIANTS[action.variant ?? 'primary'] ?? VARIANTS.primary;
  return (
    <Button
      type="button"
      data-action={action.id}
      // the form a submit action sends ('*': the screen's only form), for Enter in its fields
      data-submits={action.effect.type === 'submit' ? (action.effect.form ?? '*') : undefined}
      variant={v.variant}
      colorPalette={v.colorPalette}
      textDecoration={action.variant === 'link' ? 'underline' : undefined}
      disabled={!action.enabled || running}
      loading={running}
      // a busy button shows only its spinner; it keeps its name for screen readers
      aria-label={tk(action.label)}
      // what it acts on, when the page repeats it: each card's Register is read with its program's name
      aria-describedby={about}
      onClick={async () => {
        setRunning(true);
        try {
          await (onRun ? onRun(action) : rt.runAction(action, extra));
        } catch {
          // API errors were reported by the client's error handler; the button becomes usable again
        } finally {
          setRunning(false);
        }
      }}
    >
      {tk(action.label)}
    </Button>
  );
}

export function ActionBar({ actions, extra, justify = 'flex-start', about }: { actions: RenderAction[]; extra?: Partial<RuleContext>; justify?: string; /** the id of the element naming what the actions act on (a card's title) */ about?: string }) {
  const visible = actions.filter((a) => a.visible);
  if (!visible.length) return null;
  return (
    <Wrap gap="3" justify={justify} mt="2" className="pp-actions">
      {visible.map((a) => (
        <ActionButton key={a.id} action={a} extra={extra} about={about} />
      ))}
    </Wrap>
  );
}
