export type {
  FormatOptions,
  Formatter,
  RegisterOptions,
  FormatRegistry,
  FormatPackOptions,
  CostFunctionOptions,
  GcfSessionEntry,
  GcfSession,
  DeltaPlan,
  EdgeStatus,
  GcbSymbol,
  GcbEdge,
  GcbDocument,
  GcfNodeLine,
  GcfAddedLine,
  GcfEdgeLine,
  GcfNamedEdge,
  GcfPackDocument,
  GcfDeltaDocument,
  GcfUnchangedDocument,
  GcfDocument,
  GcfCode,
  SymbolCode,
} from './types.js';
export type { FitOptions, FittedPack } from './fit.js';
export { fitPack, DEFAULT_FIT_OPTIONS } from './fit.js';
export { DEFAULT_FORMAT_OPTIONS } from './options.js';
export { GCF_KIND_ABBREVIATIONS, GCB_KIND_CODES, GCB_PROVENANCE_CODES, GCB_EDGE_TYPE_CODES } from './codes.js';
export { xmlFormat } from './xml.js';
export { markdownFormat } from './markdown.js';
export { jsonFormat } from './json.js';
export { gcfFormat, planDelta } from './gcf.js';
export { decodeGcf } from './gcf-decode.js';
export { createGcfSession } from './session.js';
export { GCB_MAGIC, GCB_VERSION, gcbFormat, decodeGcb } from './gcb.js';
export { defaultFormats, createFormatRegistry, formatPack, costFunctionFor, costOptionsFor } from './registry.js';
