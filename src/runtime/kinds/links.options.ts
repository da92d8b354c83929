// Options of the links kind: a list of links or menu tiles.
import { binding, effect, key, params, route, ruleRef } from './parts.options';

export const linkItem = {
  title: 'LinkItem',
  type: 'object',
  required: ['label'],
  additionalProperties: false,
  properties: { label: key, description: key, to: route, query: params, href: binding, icon: { type: 'string' }, show: ruleRef, effect },
} as const;

export const linksOptions = {
  title: 'LinksOptions',
  type: 'object',
  required: ['items'],
  properties: { variant: { enum: ['list', 'tiles'] }, items: { type: 'array', items: linkItem } },
} as const;
