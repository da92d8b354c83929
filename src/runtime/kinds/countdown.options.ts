// Options of the countdown kind: the time left until a moment (seats held while the parent pays).
import { binding, key, status } from './parts.options';

export const countdownOptions = {
  title: 'CountdownOptions',
  type: 'object',
  required: ['until', 'text', 'expired'],
  properties: {
    /** an ISO date-time (e.g. $item.payment.holdUntil) */
    until: binding,
    /** shown while time is left, with {{minutes}} and {{seconds}} */
    text: key,
    /** shown once the moment has passed */
    expired: key,
    status,
  },
} as const;
