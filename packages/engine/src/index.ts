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
export type {
  Engine,
  CreateEngineOptions,
  QueryOptions,
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
  TestScopeResult,
} from './types.js';
export { fuseChannels } from './fusion.js';
export { noiseReason } from './seeds.js';
