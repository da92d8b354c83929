// Options of the alert and notice kinds: a message box (a notice is the quieter variant).
import { key, params, status } from './parts.options';

export const alertOptions = {
  title: 'AlertOptions',
  type: 'object',
  properties: { text: key, heading: key, params, status },
} as const;
