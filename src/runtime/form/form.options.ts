// Options of the form kind: the form schema, its initial values and the renderer.
import { binding, key } from '../kinds/parts.options';

export const formOptions = {
  title: 'FormOptions',
  type: 'object',
  required: ['schema'],
  properties: {
    /** form schema id (schemas/<id>.json) */
    schema: { type: 'string' },
    /** initial values (e.g. "$data.adults.0"); without it, the section's source data */
    initial: binding,
    /** 'light' draws flat text, e-mail, password, checkbox and select fields without the full form chunk; its actions show inside it */
    renderer: { enum: ['full', 'light'] },
    /** light form: fields emptied (the first focused) when its submit fails, e.g. a password */
    clearOnFailure: { type: 'array', items: { type: 'string' } },
    /** light form: data-testid prefix of the form (<id>-form) and of its submit button (<id>-submit) */
    testId: { type: 'string' },
    /** light form: accessible name of the form */
    label: key,
  },
} as const;
