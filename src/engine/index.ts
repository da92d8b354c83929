// The engine's public API (pure TypeScript, browser-safe). Node-only file reading is in ./node.
export * from './types';
export {
  formats,
  formatsFor,
  FORMAT_NAMES,
  phone,
  phoneExt,
  zipUS,
  zipCA,
  dateMdy,
  safeText,
  email,
  normalizePhone,
  isPhoneEmpty,
  maskPhone,
  displayPhone,
  normalizeZip,
  displayZip,
  parseMdy,
  formatMdy,
  mdyDayNumber,
  isoToMdy,
  mdyToIso,
} from './formats';
export type { Country, FormatFn, Ymd } from './formats';
export { RuleError, evaluateRule, isTrue, evaluateLogic, registerOperators, OPERATORS, walkLogic } from './logic';
export type { RuleSet } from './logic';
export { buildDeclarationSet, applyOverlays, mergePatch, stableStringify, contentHash, ruleTable } from './declarations';
export type { BaseDeclarations, DeclFile, Overlay, OverlayKind, DeclError, BuildResult } from './declarations';
export { checkDeclarations, structuralErrors, usedKeys, LANGUAGES } from './check';
export type { Translations } from './check';
export { ANNOTATION_KEYWORDS, createAjv } from './ajv';
export { derefSchema, mapAjvError, PAGE_LEVEL_ERROR } from './form';
export { createFormEngine } from './inprocess';
export type { RuleContext, FieldState, FieldError, ValidationResult, FormEngine, FormEngineOptions, SchemaValidator } from './form';
export { compileStandaloneModule, exportNameOf } from './standalone';
export {
  BASE_PATH,
  matchRoute,
  parseQuery,
  resolveBinding,
  resolveParams,
  resolveEffect,
  redirectTarget,
  screenModel,
  flowProgress,
  flowData,
  itemModel,
  validateUpload,
} from './screen';
export type { QueryError, ActionModel, SectionModel, ModalModel, LoadModel, FlowProgress, ScreenModel, UploadMeta } from './screen';
export { runCases } from './cases';
export type { CaseResult } from './cases';
