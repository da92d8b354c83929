// RJSF's ValidatorType on top of OUR form engine: the browser validates a form with the same
// declarations (schema + x-required/x-show rules + x-validate checks) the server uses. Hidden fields
// are never required, and messages are the engine's translation keys, translated here.
import {
  createErrorHandler,
  toErrorList,
  unwrapErrorHandler,
  validationDataMerge,
  type CustomValidator,
  type ErrorSchema,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  type StrictRJSFSchema,
  type UiSchema,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';
import type { FieldError, FormEngine, RuleContext } from '../../engine/form';
import { fieldOf, isRecord } from '../guards';

export interface EngineValidatorOptions {
  engine: FormEngine;
  /** the form's schema $id in the declaration set */
  schemaId: string;
  /** the screen context for the rules (the form values are added by the engine) */
  getContext: () => RuleContext;
  /** translates an engine key with its params (i18next) */
  translate: (key: string, params: Record<string, unknown>) => string;
}

const unescape = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

/** '/relationships/0/relationshipId' -> ['relationships', '0', 'relationshipId'] */
export function pointerSegments(pointer: string): string[] {
  return pointer.split('/').slice(1).map(unescape);
}

/** Engine errors -> RJSF's nested error schema ({field: {__errors: [message]}}). */
export function toRjsfErrorSchema(errors: FieldError[], translate: EngineValidatorOptions['translate']): ErrorSchema {
  const root: ErrorSchema = {};
  for (const e of errors) {
    let node = root;
    for (const seg of pointerSegments(e.path)) node = node[seg] ??= {};
    (node.__errors ??= []).push(translate(e.key, e.params));
  }
  return root;
}

export function toRjsfErrors(errors: FieldError[], translate: EngineValidatorOptions['translate']): RJSFValidationError[] {
  return errors.map((e) => {
    const message = translate(e.key, e.params);
    const property = e.field ? `.${e.field}` : '';
    return { name: e.key, property, message, params: e.params, stack: `${property} ${message}`.trim(), schemaPath: e.path };
  });
}

/** A subschema where JSON Schema nests one (properties, allOf, ...): a schema object, or true / false. */
type SchemaDefinition = StrictRJSFSchema | boolean;

function resolveRef(schema: StrictRJSFSchema, root: StrictRJSFSchema): StrictRJSFSchema {
  let cur = schema;
  for (let i = 0; i < 20 && typeof cur.$ref === 'string' && cur.$ref.startsWith('#'); i++) {
    let node: unknown = root;
    for (const seg of cur.$ref.slice(1).split('/').filter(Boolean)) node = fieldOf(node, unescape(seg));
    if (!isRecord(node)) return cur;
    const { $ref: _r, ...rest } = cur;
    cur = { ...node, ...rest };
  }
  return cur;
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/**
 * Structural match of a value against a (sub)schema: type, const, enum, required and properties.
 * RJSF asks this only to choose a oneOf/anyOf branch or an if/then condition; field validity is the
 * engine's job (validateFormData).
 */
export function matchesSchema(schema: SchemaDefinition | undefined, value: unknown, root: StrictRJSFSchema): boolean {
  if (schema === undefined || schema === true) return true;
  if (schema === false) return false;
  const s = resolveRef(schema, root);
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    const t = typeOf(value);
    if (value !== undefined && !types.some((x) => x === t || (x === 'number' && t === 'integer'))) return false;
  }
  if (s.const !== undefined && JSON.stringify(s.const) !== JSON.stringify(value)) return false;
  if (Array.isArray(s.enum) && !s.enum.some((x) => JSON.stringify(x) === JSON.stringify(value))) return false;
  if (isRecord(value)) {
    for (const r of s.required ?? []) if (value[r] === undefined) return false;
    for (const [k, sub] of Object.entries(s.properties ?? {})) {
      if (value[k] !== undefined && !matchesSchema(sub, value[k], root)) return false;
    }
  }
  if (Array.isArray(s.allOf) && !s.allOf.every((x) => matchesSchema(x, value, root))) return false;
  if (Array.isArray(s.anyOf) && !s.anyOf.some((x) => matchesSchema(x, value, root))) return false;
  if (Array.isArray(s.oneOf) && s.oneOf.filter((x) => matchesSchema(x, value, root)).length !== 1) return false;
  return true;
}

export function createEngineValidator<T = Record<string, unknown>>(opts: EngineValidatorOptions): ValidatorType<T, RJSFSchema> {
  const run = (formData: T | undefined) => opts.engine.validate(opts.schemaId, formData ?? {}, { ...opts.getContext(), form: formData ?? {} });

  return {
    validateFormData(
      formData: T | undefined,
      _schema: RJSFSchema,
      customValidate?: CustomValidator<T, RJSFSchema>,
      transformErrors?: ErrorTransformer<T, RJSFSchema>,
      uiSchema?: UiSchema<T, RJSFSchema>,
    ): ValidationData<T> {
      const result = run(formData);
      let errors = toRjsfErrors(result.errors, opts.translate);
      if (transformErrors) errors = transformErrors(errors, uiSchema);
      let errorSchema = toRjsfErrorSchema(result.errors, opts.translate) as ErrorSchema<T>;
      let data: ValidationData<T> = { errors, errorSchema };
      if (customValidate) {
        const handler = customValidate(formData, createErrorHandler<T>(formData as T), uiSchema);
        const custom = unwrapErrorHandler<T>(handler);
        data = validationDataMerge<T>(data, custom);
        errorSchema = data.errorSchema;
        data = { errors: toErrorList<T>(errorSchema), errorSchema };
      }
      return data;
    },
    isValid(schema: RJSFSchema, formData: T | undefined, rootSchema: RJSFSchema): boolean {
      return matchesSchema(schema, formData, rootSchema);
    },
    rawValidation<Result = unknown>(_schema: RJSFSchema, formData?: T): { errors?: Result[]; validationError?: Error } {
      try {
        const result = run(formData);
        return { errors: result.errors as unknown as Result[] };
      } catch (e) {
        return { validationError: e as Error };
      }
    },
  };
}
