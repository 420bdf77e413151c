import { concept } from '../concept.js';
import { languagePlugin } from './define.js';

/** Rust idioms: the standard traits (`Display`, `FromStr`, `Drop`, `From`), errors, async, serde. */
export const RUST_PLUGIN = languagePlugin('rust', 'rust', [
  concept('RS_DISPLAY', ['display', 'string representation', 'display impl', 'to string', 'debug output', 'formatter'], [
    'Display', 'Debug', 'to_string', 'Formatter', 'write_str',
  ]),
  concept('RS_PARSE', ['from str', 'parse from string', 'string parsing', 'try from', 'parse error'], [
    'FromStr', 'from_str', 'TryFrom', 'try_from', 'ParseError',
  ]),
  concept('RS_DROP', ['drop', 'destructor', 'cleanup on drop', 'raii', 'resource release', 'drop guard'], [
    'Drop', 'drop', 'Guard', 'DropGuard',
  ]),
  concept('RS_ERRORS', ['error type', 'error enum', 'error conversion', 'question mark operator', 'thiserror', 'anyhow'], [
    'Error', 'ErrorKind', 'source', 'From', 'Result', 'context', 'with_context', 'bail',
  ]),
  concept('RS_CONVERSIONS', ['conversion', 'into', 'from impl', 'as ref', 'type conversion'], [
    'From', 'Into', 'AsRef', 'AsMut', 'TryInto', 'Borrow', 'into_inner',
  ]),
  concept('RS_ASYNC', ['tokio', 'async runtime', 'spawn task', 'async fn', 'future', 'block on'], [
    'spawn', 'block_on', 'Future', 'poll', 'Runtime', 'JoinHandle', 'select', 'spawn_blocking',
  ]),
  concept('RS_ITERATORS', ['iterator', 'into iterator', 'iterator adapter', 'iterate over', 'collect into'], [
    'Iterator', 'IntoIterator', 'into_iter', 'iter_mut', 'Iter', 'IterMut', 'FromIterator',
  ]),
  concept('RS_SERDE', ['serde', 'serialize', 'deserialize', 'derive serialize', 'serde visitor'], [
    'Serialize', 'Deserialize', 'Serializer', 'Deserializer', 'serialize', 'deserialize', 'Visitor',
  ]),
  concept('RS_OWNERSHIP', ['shared ownership', 'reference counting', 'interior mutability', 'smart pointer', 'shared state'], [
    'RefCell', 'Mutex', 'RwLock', 'Cell', 'Weak', 'OnceCell', 'OnceLock',
  ]),
  concept('RS_EQUALITY', ['equality', 'ordering', 'partial eq', 'hash impl', 'compare values'], [
    'PartialEq', 'PartialOrd', 'Hasher', 'partial_cmp', 'Ordering',
  ]),
]);
