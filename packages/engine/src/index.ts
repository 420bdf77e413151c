export { createEngine } from './engine.js';
export { DEFAULT_ENGINE_OPTIONS, resolveEngineOptions } from './options.js';
export type {
  EngineOptions,
  EngineOptionsInput,
  ChannelWeights,
  TieredOptions,
  PathChannelOptions,
  EquivalenceChannelOptions,
  SeedOptions,
  EngineWalkOptions,
  EngineHitsOptions,
  EnginePackOptions,
} from './options.js';
export type { DiversityOptions } from './diversity.js';
export type {
  Engine,
  CreateEngineOptions,
  QueryOptions,
  QueryKind,
  ContextResult,
  PipelineTrace,
  ChannelName,
  ChannelHit,
  FusedCandidate,
  Seed,
  VectorChannel,
  SymbolExplanation,
  ExplainStage,
  TestHit,
  TestRunner,
  TestScopeResult,
} from './types.js';
export { testCommands } from './test-runners.js';
export type { TestCommandOptions } from './test-runners.js';
export { fuseChannels } from './fusion.js';
export { namespaceWrappers } from './seeds.js';
export { createTieredChannel } from './channels/tiered.js';
export { createBm25Channel } from './channels/bm25.js';
export type { Bm25ChannelOptions } from './channels/bm25.js';
export { createPathChannel } from './channels/path.js';
export { createVectorChannel } from './channels/vector.js';
export { createLexicalChannel, DEFAULT_LEXICAL_CHANNEL_OPTIONS } from './channels/lexical.js';
export { createTraceChannel } from './channels/traces.js';
export { createPastedChannel, DEFAULT_PASTED_CHANNEL_OPTIONS } from './channels/pasted.js';
export type { PastedChannelOptions } from './channels/pasted.js';
export type { LexicalChannelOptions, LexicalChannelInput } from './channels/lexical.js';
export type { Channel, ChannelContext } from './channel.js';
export { noiseReason } from './seeds.js';
