import { describe, expect, it } from 'vitest';
import { createFormEngine } from '../../../src/engine';
import type { DeclarationSet } from '../../../src/engine/types';
import { displayForm, fieldIdOf, visibleErrors, widgetFor } from '../../../src/runtime/form/display';
import set from '../../fixtures/runtime/contact-set.json';

const decl = set as unknown as DeclarationSet;
const engine = createFormEngine(decl, { country: 'US' });

describe('display schema from field states', () => {
  it('drops hidden fields, marks required ones and picks widgets', () => {
    const shown = displayForm(decl, 'contact', engine.fieldStates('contact', { form: { noPhone: false } }));
    expect(Object.keys(shown.schema.properties ?? {})).toEqual(['firstName', 'email', 'noPhone', 'cellPhone', 'zip', 'stateCode', 'children']);
    expect(shown.schema.required).toEqual(['firstName', 'cellPhone', 'stateCode']);
    expect(shown.uiSchema.cellPhone).toEqual({ 'ui:widget': 'phone' });
    expect(shown.uiSchema.stateCode).toEqual({ 'ui:widget': 'select' });
    expect(shown.uiSchema.noPhone).toEqual({ 'ui:widget': 'checkbox' });
    expect(shown.schema.$id).toBe('contact');

    const hidden = displayForm(decl, 'contact', engine.fieldStates('contact', { form: { noPhone: true } }));
    expect(Object.keys(hidden.schema.properties ?? {})).not.toContain('cellPhone');
    expect(hidden.schema.required).toEqual(['firstName', 'stateCode']);
  });

  it('follows the provider rule for e-mail required-ness', () => {
    const f = displayForm(decl, 'contact', engine.fieldStates('contact', { form: {}, provider: { emailRequired: true } }));
    expect(f.schema.required).toContain('email');
  });

  it('chooses widgets from x-widget, options, format and type', () => {
    expect(widgetFor({ type: 'string', format: 'date-mdy' })).toBe('date');
    expect(widgetFor({ type: 'string', format: 'phone-ext' })).toBe('phoneExt');
    expect(widgetFor({ type: 'integer', 'x-options': { op: 'x', value: 'id', label: 'name' } })).toBe('select');
    expect(widgetFor({ type: 'string', 'x-widget': 'radio' })).toBe('radio');
    expect(widgetFor({ type: 'string', 'x-widget': 'nonsense' })).toBeUndefined();
    expect(widgetFor({ type: 'boolean' })).toBe('checkbox');
    expect(widgetFor({ type: 'boolean', 'x-widget': 'yesNo' })).toBe('yesno');
    expect(widgetFor({ type: 'string', 'x-widget': 'state' })).toBe('state');
    expect(widgetFor({ type: 'string', 'x-widget': 'hidden' })).toBe('hidden');
    expect(widgetFor({ type: 'string' })).toBeUndefined();
  });
});

describe('row lists', () => {
  it('relationship rows are a fixed list: no add, remove or reorder, rows keep their widgets', () => {
    const rowSet = {
      schemas: {
        rel: {
          $id: 'rel',
          type: 'object',
          properties: {
            relationships: {
              type: 'array',
              title: 'fields.contact.relationships',
              'x-widget': 'relationshipRows',
              items: { type: 'object', properties: { childName: { type: 'string', 'x-widget': 'readonly' }, relationshipId: { type: 'integer', 'x-widget': 'select' } } },
            },
          },
        },
      },
    };
    const f = displayForm(rowSet, 'rel', {});
    expect(f.uiSchema.relationships).toEqual({
      'ui:options': { addable: false, removable: false, orderable: false, copyable: false, rowList: true },
      items: { childName: { 'ui:widget': 'readonly' }, relationshipId: { 'ui:widget': 'select' } },
    });
    expect((f.schema.properties?.relationships as { items?: unknown }).items).toBeDefined();
  });
});

describe('eager errors shown per touched field', () => {
  it('maps pointers to RJSF ids and filters untouched fields', () => {
    expect(fieldIdOf('contactForm', '/children/0/childName')).toBe('contactForm_children_0_childName');
    const schema = { firstName: { __errors: ['a'] }, children: { 0: { childName: { __errors: ['b'] } } }, zip: { __errors: ['c'] } };
    const touched = new Set(['/firstName', '/children/0/childName']);
    expect(visibleErrors(schema, (p) => touched.has(p))).toEqual({ firstName: { __errors: ['a'] }, children: { 0: { childName: { __errors: ['b'] } } } });
    expect(visibleErrors(schema, () => false)).toEqual({});
  });
});
