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
  dateInLanguage,
  timeInLanguage,
  dateTimeInLanguage,
} from './formats';
export type { Country, FormatFn, Ymd } from './formats';
export { businessDate, fixedToday, parseIsoDay, setFixedToday } from './today';
export { RuleError, evaluateRule, isTrue, evaluateLogic, registerOperators, OPERATORS, OPERATOR_TABLE, PORTAL_OPERATORS, isOperator, walkLogic } from './logic';
export type { OperatorName, PortalOperator } from './logic';
export type { RuleSet } from './logic';
export { buildDeclarationSet, applyOverlays, mergePatch, stableStringify, contentHash, ruleTable } from './declarations';
export type { BaseDeclarations, DeclFile, Overlay, OverlayKind, DeclError, BuildResult } from './declarations';
export { checkDeclarations, structuralErrors, usedKeys, LANGUAGES } from './check';
export type { Translations } from './check';
export { ANNOTATION_KEYWORDS, createAjv } from './ajv';
export { derefSchema, mapAjvError, PAGE_LEVEL_ERROR } from './form';
export { WIDGETS, WIDGET_NAMES, FIELD_WIDGETS, ROW_LIST_WIDGETS, LIGHT_WIDGETS, fieldWidget, isWidgetName, isRowListWidget, lightFields } from './fields/widgetTable';
export type { WidgetName, FieldWidget, RowListWidget, LightWidget, LightField, LightFieldProblem } from './fields/widgetTable';
export { createFormEngine } from './inprocess';
export type { RuleContext, FieldState, FieldError, ValidationResult, FormEngine, FormEngineOptions, SchemaValidator } from './form';
export { compileStandaloneModule, exportNameOf } from './standalone';
export {
  BASE_PATH,
  PRODUCT_BASES,
  productOfPath,
  screensOfProduct,
  matchRoute,
  parseQuery,
  resolveBinding,
  resolveParams,
  resolveEffect,
  screenModel,
  flowProgress,
  flowData,
  itemModel,
} from './screen';
export { redirectTarget, validateUpload } from './transfers';
export type { UploadMeta } from './transfers';
export type { QueryError, ActionModel, SectionModel, ModalModel, LoadModel, FlowProgress, ScreenModel } from './screen';
export { runCases, pathsRead, resolvePath, nullMissingGaps } from './cases';
export type { CaseResult, NullMissingGap } from './cases';
