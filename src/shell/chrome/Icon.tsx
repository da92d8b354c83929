// Line icons drawn for the portal (24×24, stroke = currentColor); decorative unless labelled.
import { chakra } from '@chakra-ui/react';
import type { ComponentProps } from 'react';
import { ICON_PATHS, type IconName } from './icons';

export type { IconName };

export function Icon({ name, label, size = '1.25em', ...rest }: { name: IconName; label?: string; size?: string } & ComponentProps<typeof chakra.svg>) {
  return (
    <chakra.svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      flexShrink={0}
      aria-hidden={label ? undefined : true}
      role={label ? 'img' : undefined}
      aria-label={label}
      focusable="false"
      {...rest}
    >
      <path d={ICON_PATHS[name]} />
    </chakra.svg>
  );
}
