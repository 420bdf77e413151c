export type {
  TransitionOptions,
  WalkTransitions,
  WalkSeed,
  WalkOptions,
  WalkStopReason,
  WalkResult,
  CandidateOptions,
  WalkCandidate,
  HitsOptions,
  HitsResult,
  CommunityOptions,
  Communities,
  DeserializeCommunitiesOptions,
  RestrictionOptions,
  WalkCacheKeyInput,
  WalkCacheOptions,
  WalkCache,
  AdjacencySource,
  LoadAdjacencyOptions,
  LoadedAdjacency,
  AdjacencyReader,
} from './types.js';
export { DEFAULT_TRANSITION_OPTIONS, transitionsFor, weightedTransitions } from './transitions.js';
export { serializeTransitions, deserializeTransitions } from './transitions-codec.js';
export { DEFAULT_WALK_OPTIONS, DEFAULT_CANDIDATE_OPTIONS, randomWalkWithRestart, walkCandidates } from './rwr.js';
export { DEFAULT_HITS_OPTIONS, hits } from './hits.js';
export {
  DEFAULT_COMMUNITY_OPTIONS,
  DEFAULT_RESTRICTION_OPTIONS,
  detectCommunities,
  communityRestriction,
  serializeCommunities,
  deserializeCommunities,
} from './communities.js';
export { DEFAULT_LOAD_OPTIONS, loadAdjacency, forgetAdjacency } from './load.js';
export { DEFAULT_WALK_CACHE_OPTIONS, walkCacheKey, createWalkCache } from './cache.js';
export { serializeWalkResult, deserializeWalkResult } from './result-codec.js';
