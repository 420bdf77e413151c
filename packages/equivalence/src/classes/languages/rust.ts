import { languagePlugin } from './define.js';

/** Rust idioms: the standard traits (`Display`, `FromStr`, `Drop`, `From`), errors, async, serde. */
export const RUST_PLUGIN = languagePlugin('rust', 'rust', [
  {
    concept: 'RS_DISPLAY',
    phrases: ['display', 'string representation', 'display impl', 'to string', 'debug output', 'formatter'],
    targets: ['Display', 'Debug', 'to_string', 'Formatter', 'write_str'],
  },
  {
    concept: 'RS_PARSE',
    phrases: ['from str', 'parse from string', 'string parsing', 'try from', 'parse error'],
    targets: ['FromStr', 'from_str', 'TryFrom', 'try_from', 'ParseError'],
  },
  {
    concept: 'RS_DROP',
    phrases: ['drop', 'destructor', 'cleanup on drop', 'raii', 'resource release', 'drop guard'],
    targets: ['Drop', 'drop', 'Guard', 'DropGuard'],
  },
  {
    concept: 'RS_ERRORS',
    phrases: ['error type', 'error enum', 'error conversion', 'question mark operator', 'thiserror', 'anyhow'],
    targets: ['Error', 'ErrorKind', 'source', 'From', 'Result', 'context', 'with_context', 'bail'],
  },
  {
    concept: 'RS_CONVERSIONS',
    phrases: ['conversion', 'into', 'from impl', 'as ref', 'type conversion'],
    targets: ['From', 'Into', 'AsRef', 'AsMut', 'TryInto', 'Borrow', 'into_inner'],
  },
  {
    concept: 'RS_ASYNC',
    phrases: ['tokio', 'async runtime', 'spawn task', 'async fn', 'future', 'block on'],
    targets: ['spawn', 'block_on', 'Future', 'poll', 'Runtime', 'JoinHandle', 'select', 'spawn_blocking'],
  },
  {
    concept: 'RS_ITERATORS',
    phrases: ['iterator', 'into iterator', 'iterator adapter', 'iterate over', 'collect into'],
    targets: ['Iterator', 'IntoIterator', 'into_iter', 'iter_mut', 'Iter', 'IterMut', 'FromIterator'],
  },
  {
    concept: 'RS_SERDE',
    phrases: ['serde', 'serialize', 'deserialize', 'derive serialize', 'serde visitor'],
    targets: ['Serialize', 'Deserialize', 'Serializer', 'Deserializer', 'serialize', 'deserialize', 'Visitor'],
  },
  {
    concept: 'RS_OWNERSHIP',
    phrases: ['shared ownership', 'reference counting', 'interior mutability', 'smart pointer', 'shared state'],
    targets: ['RefCell', 'Mutex', 'RwLock', 'Cell', 'Weak', 'OnceCell', 'OnceLock'],
  },
  {
    concept: 'RS_EQUALITY',
    phrases: ['equality', 'ordering', 'partial eq', 'hash impl', 'compare values'],
    targets: ['PartialEq', 'PartialOrd', 'Hasher', 'partial_cmp', 'Ordering'],
  },
]);
