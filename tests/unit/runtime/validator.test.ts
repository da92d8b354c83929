// The RJSF validator adapter over the real form engine, with real i18next translations.
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import type { RJSFSchema } from '@rjsf/utils';
import { createFormEngine } from '../../../src/engine';
import type { DeclarationSet } from '../../../src/engine/types';
import { createEngineValidator, matchesSchema, pointerSegments } from '../../../src/runtime/form/validator';
import { translate } from '../../../src/runtime/i18n';
import set from '../../fixtures/runtime/contact-set.json';

const i18n = i18next.createInstance();
await i18n.init({
  lng: 'es',
  fallbackLng: false,
  ns: ['common', 'fields', 'errors'],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  resources: {
    es: {
      fields: { firstName: 'Nombre', cellPhone: 'Teléfono celular', email: 'Correo electrónico', childName: 'Nombre del niño', state: 'Estado' },
      errors: { required: '{{field}} es obligatorio', format: { phone: 'Teléfono no válido', email: 'Correo no válido', safeText: 'Caracteres no admitidos' } },
    },
  },
});

const engine = createFormEngine(set as unknown as DeclarationSet, { country: 'US' });

function validator(provider: Record<string, unknown> = {}) {
  return createEngineValidator({
    engine,
    schemaId: 'contact',
    getContext: () => ({ provider, session: {}, query: {}, data: {}, flow: {} }),
    translate: (key, params) => translate(i18n.t, key, params),
  });
}

describe('engine-backed RJSF validator', () => {
  it('reports required fields with translated messages and a nested error schema', () => {
    const r = validator().validateFormData({ children: [{ childName: '' }] }, set.schemas.contact as never);
    expect(r.errorSchema).toMatchObject({
      firstName: { __errors: ['Nombre es obligatorio'] },
      cellPhone: { __errors: ['Teléfono celular es obligatorio'] },
      children: { 0: { childName: { __errors: ['Nombre del niño es obligatorio'] } } },
    });
    const names = r.errors.map((e) => e.property);
    expect(names).toEqual(['.firstName', '.cellPhone', '.stateCode', '.children.0.childName']);
    expect(r.errors[0]).toMatchObject({ name: 'errors.required', message: 'Nombre es obligatorio' });
  });

  it('does not require a hidden field (no-phone ticked) and requires e-mail only when the rule says so', () => {
    const v = validator();
    const r = v.validateFormData({ firstName: 'Ana', noPhone: true, stateCode: 'IL' }, {} as never);
    expect(r.errors).toEqual([]);
    const strict = validator({ emailRequired: true }).validateFormData({ firstName: 'Ana', noPhone: true, stateCode: 'IL' }, {} as never);
    expect(strict.errors.map((e) => e.property)).toEqual(['.email']);
  });

  it('treats the empty select entry as empty and checks formats', () => {
    const r = validator().validateFormData({ firstName: 'A<b', cellPhone: '(555)12', stateCode: '' }, {} as never);
    expect(r.errorSchema).toMatchObject({
      firstName: { __errors: ['Caracteres no admitidos'] },
      cellPhone: { __errors: ['Teléfono no válido'] },
      stateCode: { __errors: ['Estado es obligatorio'] },
    });
  });

  it('accepts a masked phone (the engine stores digits)', () => {
    const r = validator().validateFormData({ firstName: 'Ana', cellPhone: '(555)123-4567', stateCode: 'WI' }, {} as never);
    expect(r.errors).toEqual([]);
  });

  it('merges a custom validator', () => {
    const r = validator().validateFormData({ firstName: 'Ana', noPhone: true, stateCode: 'IL' }, {} as never, (data, errors) => {
      errors.firstName?.addError('custom');
      return errors;
    });
    expect(r.errorSchema).toMatchObject({ firstName: { __errors: ['custom'] } });
    expect(r.errors).toHaveLength(1);
  });

  it('rawValidation gives the engine errors; a broken rule becomes validationError', () => {
    expect(validator().rawValidation({}, {}).errors?.length).toBeGreaterThan(0);
    const broken = createEngineValidator({ engine, schemaId: 'nope', getContext: () => ({}), translate: (k) => k });
    expect(broken.rawValidation({}, {}).validationError).toBeInstanceOf(Error);
  });
});

describe('structural isValid for oneOf/anyOf choices', () => {
  const root: RJSFSchema = { $defs: { kind: { type: 'string', enum: ['a', 'b'] } } };
  it('checks type, const, enum, required and properties with local $ref', () => {
    expect(matchesSchema({ type: 'object', required: ['k'], properties: { k: { $ref: '#/$defs/kind' } } }, { k: 'a' }, root)).toBe(true);
    expect(matchesSchema({ type: 'object', required: ['k'], properties: { k: { $ref: '#/$defs/kind' } } }, { k: 'c' }, root)).toBe(false);
    expect(matchesSchema({ type: 'object', required: ['k'] }, {}, root)).toBe(false);
    expect(matchesSchema({ const: 4 }, 4, root)).toBe(true);
    expect(matchesSchema({ type: 'number' }, 3, root)).toBe(true);
    expect(matchesSchema({ type: 'integer' }, 3.5, root)).toBe(false);
    expect(matchesSchema({ oneOf: [{ type: 'string' }, { type: 'string', enum: ['x'] }] }, 'x', root)).toBe(false);
    expect(matchesSchema(false, 1, root)).toBe(false);
  });
  it('splits JSON pointers', () => {
    expect(pointerSegments('/a~1b/0/c~0d')).toEqual(['a/b', '0', 'c~d']);
  });
});
