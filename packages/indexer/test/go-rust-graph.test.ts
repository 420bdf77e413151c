/**
 * End-to-end graphs of the Go and Rust fixtures: extraction by goLanguage / rustLanguage,
 * resolution and derived passes by the core, stored in the in-memory store.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GraphEdge, GraphNode } from '@knowing/graph';
import { goLanguage } from '../src/languages/go.js';
import { rustLanguage } from '../src/languages/rust.js';
import { fixtureGraph } from './helpers/fixture-graph.js';
import { edgesOfType } from './helpers/graph-text.js';
import type { GraphText } from './helpers/graph-text.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

// Reviewed by hand: every node and every edge except contains/member_of, which are checked by rule.
const GO_NODES = [
  'constant store/store.go.KindBook',
  'constant store/store.go.KindGame',
  'external external:encoding/json.Encoder.Encode',
  'external external:encoding/json.NewEncoder',
  'external external:errors.New',
  'external external:github.com/caarlos0/env',
  'external external:github.com/caarlos0/env/v11.Parse',
  'external external:gopkg.in/yaml.v3',
  'external external:gopkg.in/yaml.v3.Marshal',
  'external external:net/http.Error',
  'external external:net/http.Request',
  'external external:net/http.ResponseWriter',
  'external external:std',
  'external external:sync.Mutex',
  'external external:sync.Mutex.Lock',
  'external external:sync.Mutex.Unlock',
  'external external:testing.B',
  'external external:testing.T',
  'external external:testing.TB',
  'external external:time.Time',
  'field api/config.go.Config.Addr',
  'field api/handler.go.Server.logger',
  'field api/handler.go.Server.mem',
  'field api/handler.go.Server.store',
  'field store/base.go.Base.Created',
  'field store/base.go.Base.hits',
  'field store/store.go.InvalidItem.Reason',
  'field store/store.go.Item.Key',
  'field store/store.go.Item.Kind',
  'field store/store.go.MemStore.index',
  'field store/store.go.MemStore.items',
  'field store/store.go.MemStore.mu',
  'file api/config.go',
  'file api/handler.go',
  'file api/handler_test.go',
  'file store/base.go',
  'file store/store.go',
  'function api/config.go.LoadConfig',
  'function api/handler.go.NewServer',
  'function api/handler_test.go.BenchmarkServe',
  'function api/handler_test.go.TestServeHTTP',
  'function api/handler_test.go.helper',
  'function store/store.go.NewMemStore',
  'interface api/handler.go.Encoder',
  'interface store/store.go.Reader',
  'interface store/store.go.Store',
  'method api/handler.go.Encoder.Encode',
  'method api/handler.go.Logger.Printf',
  'method api/handler.go.Server.ServeHTTP',
  'method api/handler.go.Server.reply',
  'method api/handler.go.yamlEncoder.Encode',
  'method store/base.go.Base.Touch',
  'method store/store.go.Index.Add',
  'method store/store.go.InvalidItem.Error',
  'method store/store.go.MemStore.Get',
  'method store/store.go.MemStore.Put',
  'method store/store.go.Reader.Get',
  'method store/store.go.Store.Put',
  'struct api/config.go.Config',
  'struct api/handler.go.Logger',
  'struct api/handler.go.Server',
  'struct api/handler.go.yamlEncoder',
  'struct store/base.go.Base',
  'struct store/store.go.Index',
  'struct store/store.go.InvalidItem',
  'struct store/store.go.Item',
  'struct store/store.go.MemStore',
  'type_alias api/handler.go.HandlerFunc',
  'type_alias store/store.go.Kind',
  'variable api/config.go.defaults',
  'variable store/store.go.ErrMissing',
];

const GO_EDGES: Record<string, string[]> = {
  accesses_field: [
    'api/handler.go.Server.ServeHTTP -> api/handler.go.Server.store',
    'api/handler.go.Server.reply -> api/handler.go.Server.mem',
    'store/base.go.Base.Touch -> store/base.go.Base.hits',
    'store/store.go.InvalidItem.Error -> store/store.go.InvalidItem.Reason',
    'store/store.go.MemStore.Get -> store/store.go.MemStore.items',
    'store/store.go.MemStore.Put -> store/store.go.MemStore.index',
    'store/store.go.MemStore.Put -> store/store.go.MemStore.items',
  ],
  calls: [
    'api/config.go.LoadConfig -> external:github.com/caarlos0/env/v11.Parse',
    'api/handler.go.NewServer -> api/handler.go.Logger',
    'api/handler.go.NewServer -> api/handler.go.Server',
    'api/handler.go.NewServer -> store/store.go.NewMemStore',
    'api/handler.go.Server.ServeHTTP -> api/handler.go.Logger.Printf',
    'api/handler.go.Server.ServeHTTP -> api/handler.go.NewServer',
    'api/handler.go.Server.ServeHTTP -> api/handler.go.Server.reply',
    'api/handler.go.Server.ServeHTTP -> api/handler.go.yamlEncoder',
    'api/handler.go.Server.ServeHTTP -> api/handler.go.yamlEncoder.Encode',
    'api/handler.go.Server.ServeHTTP -> external:net/http.Error',
    'api/handler.go.Server.ServeHTTP -> store/store.go.Reader.Get',
    'api/handler.go.Server.reply -> external:encoding/json.Encoder.Encode',
    'api/handler.go.Server.reply -> external:encoding/json.NewEncoder',
    'api/handler.go.Server.reply -> external:gopkg.in/yaml.v3.Marshal',
    'api/handler.go.Server.reply -> store/store.go.MemStore.Put',
    'api/handler_test.go.BenchmarkServe -> api/handler_test.go.helper',
    'api/handler_test.go.TestServeHTTP -> api/handler.go.NewServer',
    'api/handler_test.go.TestServeHTTP -> api/handler.go.Server.reply',
    'api/handler_test.go.TestServeHTTP -> store/store.go.Item',
    'api/handler_test.go.TestServeHTTP -> store/store.go.NewMemStore',
    'store/store.go.ErrMissing -> external:errors.New',
    'store/store.go.MemStore.Get -> external:sync.Mutex.Lock',
    'store/store.go.MemStore.Get -> external:sync.Mutex.Unlock',
    'store/store.go.MemStore.Get -> store/base.go.Base.Touch',
    'store/store.go.MemStore.Put -> store/store.go.Index.Add',
    'store/store.go.NewMemStore -> store/base.go.Base',
    'store/store.go.NewMemStore -> store/store.go.Index',
    'store/store.go.NewMemStore -> store/store.go.MemStore',
  ],
  co_tested_with: [
    'api/handler.go.NewServer -> api/handler.go.Server.reply',
    'api/handler.go.NewServer -> store/store.go.Item',
    'api/handler.go.NewServer -> store/store.go.NewMemStore',
    'store/store.go.Item -> api/handler.go.Server.reply',
    'store/store.go.NewMemStore -> api/handler.go.Server.reply',
    'store/store.go.NewMemStore -> store/store.go.Item',
  ],
  extends: [
    'store/store.go.MemStore -> store/base.go.Base',
    'store/store.go.Store -> store/store.go.Reader',
  ],
  implements: [
    'api/handler.go.yamlEncoder -> api/handler.go.Encoder',
    'store/store.go.MemStore -> store/store.go.Reader',
    'store/store.go.MemStore -> store/store.go.Store',
  ],
  imports: [
    'api/config.go -> external:github.com/caarlos0/env',
    'api/config.go -> external:std',
    'api/handler.go -> external:gopkg.in/yaml.v3',
    'api/handler.go -> external:std',
    'api/handler.go -> store/base.go',
    'api/handler.go -> store/store.go',
    'api/handler_test.go -> external:std',
    'api/handler_test.go -> store/base.go',
    'api/handler_test.go -> store/store.go',
    'store/base.go -> external:std',
    'store/store.go -> external:std',
  ],
  inherits: [
    'store/store.go.MemStore -> store/base.go.Base.Touch',
    'store/store.go.Store -> store/store.go.Reader.Get',
  ],
  overrides: [
    'api/handler.go.yamlEncoder.Encode -> api/handler.go.Encoder.Encode',
    'store/store.go.MemStore.Get -> store/store.go.Reader.Get',
    'store/store.go.MemStore.Put -> store/store.go.Store.Put',
  ],
  references: [
    'api/config.go.LoadConfig -> api/config.go.Config',
    'api/handler.go.Server.ServeHTTP -> api/handler.go.Encoder',
    'api/handler.go.Server.ServeHTTP -> api/handler.go.yamlEncoder',
    'store/store.go.MemStore.Get -> store/store.go.ErrMissing',
    'store/store.go.NewMemStore -> store/store.go.Item',
  ],
  tested_by: [
    'api/handler.go.NewServer -> api/handler_test.go.TestServeHTTP',
    'api/handler.go.Server.reply -> api/handler_test.go.TestServeHTTP',
    'store/store.go.Item -> api/handler_test.go.TestServeHTTP',
    'store/store.go.NewMemStore -> api/handler_test.go.TestServeHTTP',
  ],
  tests: [
    'api/handler_test.go.TestServeHTTP -> api/handler.go.NewServer',
    'api/handler_test.go.TestServeHTTP -> api/handler.go.Server.reply',
    'api/handler_test.go.TestServeHTTP -> store/store.go.Item',
    'api/handler_test.go.TestServeHTTP -> store/store.go.NewMemStore',
  ],
  throws: [
    'store/store.go.MemStore.Put -> store/store.go.InvalidItem',
  ],
  type_hint_of: [
    'api/config.go.LoadConfig -> api/config.go.Config',
    'api/handler.go.HandlerFunc -> external:net/http.Request',
    'api/handler.go.HandlerFunc -> external:net/http.ResponseWriter',
    'api/handler.go.NewServer -> api/handler.go.Server',
    'api/handler.go.NewServer -> store/store.go.Store',
    'api/handler.go.Server.ServeHTTP -> external:net/http.Request',
    'api/handler.go.Server.ServeHTTP -> external:net/http.ResponseWriter',
    'api/handler.go.Server.logger -> api/handler.go.Logger',
    'api/handler.go.Server.mem -> store/store.go.MemStore',
    'api/handler.go.Server.reply -> external:net/http.ResponseWriter',
    'api/handler.go.Server.reply -> store/store.go.Item',
    'api/handler.go.Server.store -> store/store.go.Store',
    'api/handler_test.go.BenchmarkServe -> external:testing.B',
    'api/handler_test.go.TestServeHTTP -> external:testing.T',
    'api/handler_test.go.helper -> external:testing.TB',
    'store/base.go.Base.Created -> external:time.Time',
    'store/store.go.Index.Add -> store/store.go.Kind',
    'store/store.go.Item.Kind -> store/store.go.Kind',
    'store/store.go.KindBook -> store/store.go.Kind',
    'store/store.go.KindGame -> store/store.go.Kind',
    'store/store.go.MemStore.Get -> store/store.go.Item',
    'store/store.go.MemStore.Put -> store/store.go.Item',
    'store/store.go.MemStore.index -> store/store.go.Index',
    'store/store.go.MemStore.items -> store/store.go.Item',
    'store/store.go.MemStore.mu -> external:sync.Mutex',
    'store/store.go.NewMemStore -> store/store.go.MemStore',
    'store/store.go.Reader.Get -> store/store.go.Item',
    'store/store.go.Store.Put -> store/store.go.Item',
  ],
};

const RUST_NODES = [
  'constant crates/inventory/src/model.rs.Kind.Book',
  'constant crates/inventory/src/model.rs.Kind.Game',
  'constant crates/inventory/src/store/mod.rs.MAX_ITEMS',
  'constant crates/inventory/src/store/mod.rs.StoreError.Full',
  'constant crates/inventory/src/store/mod.rs.StoreError.Missing',
  'constructor crates/inventory/src/model.rs.Item.new',
  'constructor crates/inventory/src/store/mod.rs.MemStore.new',
  'enum crates/inventory/src/model.rs.Kind',
  'enum crates/inventory/src/store/mod.rs.StoreError',
  'external external:Index.default',
  'external external:derive',
  'external external:std',
  'external external:store.get',
  'external external:store.put',
  'external external:test',
  'field crates/inventory/src/model.rs.Item.key',
  'field crates/inventory/src/model.rs.Item.kind',
  'field crates/inventory/src/store/index.rs.Index.games',
  'field crates/inventory/src/store/mod.rs.MemStore.capacity',
  'field crates/inventory/src/store/mod.rs.MemStore.index',
  'field crates/inventory/src/store/mod.rs.MemStore.items',
  'file crates/inventory/src/lib.rs',
  'file crates/inventory/src/model.rs',
  'file crates/inventory/src/report.rs',
  'file crates/inventory/src/store/index.rs',
  'file crates/inventory/src/store/mod.rs',
  'file crates/inventory/src/util.rs',
  'file crates/inventory/tests/roundtrip.rs',
  'function crates/inventory/src/lib.rs.open',
  'function crates/inventory/src/report.rs.report',
  'function crates/inventory/src/store/mod.rs.tests.put_then_get',
  'function crates/inventory/src/util.rs.checkpoint',
  'function crates/inventory/src/util.rs.default_capacity',
  'function crates/inventory/src/util.rs.text.pad',
  'function crates/inventory/src/util.rs.text.pad_default',
  'function crates/inventory/tests/roundtrip.rs.stores_and_reads_back',
  'method crates/inventory/src/model.rs.Describe.describe',
  'method crates/inventory/src/model.rs.Describe.headline',
  'method crates/inventory/src/model.rs.Item.describe',
  'method crates/inventory/src/model.rs.Item.fmt',
  'method crates/inventory/src/model.rs.Item.is_game',
  'method crates/inventory/src/report.rs.MemStore.describe',
  'method crates/inventory/src/store/index.rs.Index.add',
  'method crates/inventory/src/store/index.rs.Index.count',
  'method crates/inventory/src/store/mod.rs.MemStore.games',
  'method crates/inventory/src/store/mod.rs.MemStore.get',
  'method crates/inventory/src/store/mod.rs.MemStore.put',
  'method crates/inventory/src/store/mod.rs.Store.get',
  'method crates/inventory/src/store/mod.rs.Store.put',
  'method crates/inventory/src/store/mod.rs.Store.put_all',
  'module crates/inventory/src/store/mod.rs.tests',
  'module crates/inventory/src/util.rs.text',
  'struct crates/inventory/src/model.rs.Item',
  'struct crates/inventory/src/store/index.rs.Index',
  'struct crates/inventory/src/store/mod.rs.MemStore',
  'trait crates/inventory/src/model.rs.Describe',
  'trait crates/inventory/src/store/mod.rs.Store',
  'type_alias crates/inventory/src/store/mod.rs.Result',
];

const RUST_EDGES: Record<string, string[]> = {
  accesses_field: [
    'crates/inventory/src/model.rs.Item.describe -> crates/inventory/src/model.rs.Item.key',
    'crates/inventory/src/model.rs.Item.describe -> crates/inventory/src/model.rs.Item.kind',
    'crates/inventory/src/model.rs.Item.fmt -> crates/inventory/src/model.rs.Item.key',
    'crates/inventory/src/model.rs.Item.is_game -> crates/inventory/src/model.rs.Item.kind',
    'crates/inventory/src/store/index.rs.Index.add -> crates/inventory/src/store/index.rs.Index.games',
    'crates/inventory/src/store/index.rs.Index.count -> crates/inventory/src/store/index.rs.Index.games',
    'crates/inventory/src/store/mod.rs.MemStore.games -> crates/inventory/src/store/mod.rs.MemStore.index',
    'crates/inventory/src/store/mod.rs.MemStore.get -> crates/inventory/src/store/mod.rs.MemStore.items',
    'crates/inventory/src/store/mod.rs.MemStore.put -> crates/inventory/src/store/mod.rs.MemStore.capacity',
    'crates/inventory/src/store/mod.rs.MemStore.put -> crates/inventory/src/store/mod.rs.MemStore.index',
    'crates/inventory/src/store/mod.rs.MemStore.put -> crates/inventory/src/store/mod.rs.MemStore.items',
  ],
  calls: [
    'crates/inventory/src/lib.rs.open -> crates/inventory/src/store/mod.rs.MemStore.new',
    'crates/inventory/src/lib.rs.open -> crates/inventory/src/util.rs.default_capacity',
    'crates/inventory/src/model.rs.Describe.headline -> crates/inventory/src/model.rs.Describe.describe',
    'crates/inventory/src/report.rs.MemStore.describe -> crates/inventory/src/store/mod.rs.MemStore.games',
    'crates/inventory/src/report.rs.report -> crates/inventory/src/report.rs.MemStore.describe',
    'crates/inventory/src/store/index.rs.Index.add -> crates/inventory/src/model.rs.Item.is_game',
    'crates/inventory/src/store/mod.rs.MemStore.games -> crates/inventory/src/store/index.rs.Index.count',
    'crates/inventory/src/store/mod.rs.MemStore.new -> external:Index.default',
    'crates/inventory/src/store/mod.rs.MemStore.put -> crates/inventory/src/store/index.rs.Index.add',
    'crates/inventory/src/store/mod.rs.Store.put_all -> crates/inventory/src/store/mod.rs.Store.put',
    'crates/inventory/src/store/mod.rs.tests.put_then_get -> crates/inventory/src/model.rs.Item.new',
    'crates/inventory/src/store/mod.rs.tests.put_then_get -> crates/inventory/src/store/mod.rs.MemStore.get',
    'crates/inventory/src/store/mod.rs.tests.put_then_get -> crates/inventory/src/store/mod.rs.MemStore.new',
    'crates/inventory/src/store/mod.rs.tests.put_then_get -> crates/inventory/src/store/mod.rs.MemStore.put',
    'crates/inventory/src/util.rs.default_capacity -> crates/inventory/src/util.rs.checkpoint',
    'crates/inventory/src/util.rs.text.pad_default -> crates/inventory/src/util.rs.default_capacity',
    // `self::pad()` inside `mod text`: a sibling item of the inline module
    'crates/inventory/src/util.rs.text.pad_default -> crates/inventory/src/util.rs.text.pad',
    'crates/inventory/tests/roundtrip.rs.stores_and_reads_back -> crates/inventory/src/lib.rs.open',
    'crates/inventory/tests/roundtrip.rs.stores_and_reads_back -> crates/inventory/src/model.rs.Item.new',
    'crates/inventory/tests/roundtrip.rs.stores_and_reads_back -> external:store.get',
    'crates/inventory/tests/roundtrip.rs.stores_and_reads_back -> external:store.put',
  ],
  co_tested_with: [
    'crates/inventory/src/model.rs.Item.new -> crates/inventory/src/lib.rs.open',
    'crates/inventory/src/model.rs.Item.new -> crates/inventory/src/store/mod.rs.MemStore.get',
    'crates/inventory/src/model.rs.Item.new -> crates/inventory/src/store/mod.rs.MemStore.new',
    'crates/inventory/src/store/mod.rs.MemStore.get -> crates/inventory/src/store/mod.rs.MemStore.new',
    'crates/inventory/src/store/mod.rs.MemStore.put -> crates/inventory/src/model.rs.Item.new',
    'crates/inventory/src/store/mod.rs.MemStore.put -> crates/inventory/src/store/mod.rs.MemStore.get',
    'crates/inventory/src/store/mod.rs.MemStore.put -> crates/inventory/src/store/mod.rs.MemStore.new',
  ],
  decorates: [
    'external:derive -> crates/inventory/src/model.rs.Item',
    'external:derive -> crates/inventory/src/model.rs.Kind',
    'external:derive -> crates/inventory/src/store/index.rs.Index',
    'external:derive -> crates/inventory/src/store/mod.rs.StoreError',
    'external:test -> crates/inventory/src/store/mod.rs.tests.put_then_get',
    'external:test -> crates/inventory/tests/roundtrip.rs.stores_and_reads_back',
  ],
  implements: [
    'crates/inventory/src/model.rs.Item -> crates/inventory/src/model.rs.Describe',
    // `impl Describe for MemStore` in report.rs, MemStore in store/mod.rs
    'crates/inventory/src/store/mod.rs.MemStore -> crates/inventory/src/model.rs.Describe',
    'crates/inventory/src/store/mod.rs.MemStore -> crates/inventory/src/store/mod.rs.Store',
  ],
  imports: [
    'crates/inventory/src/lib.rs -> crates/inventory/src/model.rs',
    'crates/inventory/src/lib.rs -> crates/inventory/src/report.rs',
    'crates/inventory/src/lib.rs -> crates/inventory/src/store/mod.rs',
    'crates/inventory/src/lib.rs -> crates/inventory/src/util.rs',
    'crates/inventory/src/model.rs -> external:std',
    'crates/inventory/src/report.rs -> crates/inventory/src/model.rs',
    'crates/inventory/src/report.rs -> crates/inventory/src/store/mod.rs',
    'crates/inventory/src/store/index.rs -> crates/inventory/src/model.rs',
    'crates/inventory/src/store/mod.rs -> crates/inventory/src/model.rs',
    'crates/inventory/src/store/mod.rs -> crates/inventory/src/store/index.rs',
    'crates/inventory/src/store/mod.rs -> external:std',
    'crates/inventory/tests/roundtrip.rs -> crates/inventory/src/lib.rs',
    'crates/inventory/tests/roundtrip.rs -> crates/inventory/src/model.rs',
    'crates/inventory/tests/roundtrip.rs -> crates/inventory/src/store/mod.rs',
  ],
  inherits: [
    'crates/inventory/src/model.rs.Item -> crates/inventory/src/model.rs.Describe.headline',
    'crates/inventory/src/store/mod.rs.MemStore -> crates/inventory/src/model.rs.Describe.headline',
    'crates/inventory/src/store/mod.rs.MemStore -> crates/inventory/src/store/mod.rs.Store.put_all',
  ],
  overrides: [
    'crates/inventory/src/model.rs.Item.describe -> crates/inventory/src/model.rs.Describe.describe',
    'crates/inventory/src/report.rs.MemStore.describe -> crates/inventory/src/model.rs.Describe.describe',
    'crates/inventory/src/store/mod.rs.MemStore.get -> crates/inventory/src/store/mod.rs.Store.get',
    'crates/inventory/src/store/mod.rs.MemStore.put -> crates/inventory/src/store/mod.rs.Store.put',
  ],
  references: [
    'crates/inventory/src/store/mod.rs.MemStore.games -> crates/inventory/src/model.rs.Kind.Book',
    'crates/inventory/src/store/mod.rs.MemStore.put -> crates/inventory/src/store/mod.rs.MAX_ITEMS',
    'crates/inventory/src/store/mod.rs.MemStore.put -> crates/inventory/src/store/mod.rs.StoreError.Full',
    'crates/inventory/src/store/mod.rs.tests.put_then_get -> crates/inventory/src/model.rs.Kind.Book',
    'crates/inventory/tests/roundtrip.rs.stores_and_reads_back -> crates/inventory/src/model.rs.Kind.Book',
  ],
  tested_by: [
    'crates/inventory/src/lib.rs.open -> crates/inventory/tests/roundtrip.rs.stores_and_reads_back',
    'crates/inventory/src/model.rs.Item.new -> crates/inventory/src/store/mod.rs.tests.put_then_get',
    'crates/inventory/src/model.rs.Item.new -> crates/inventory/tests/roundtrip.rs.stores_and_reads_back',
    'crates/inventory/src/store/mod.rs.MemStore.get -> crates/inventory/src/store/mod.rs.tests.put_then_get',
    'crates/inventory/src/store/mod.rs.MemStore.new -> crates/inventory/src/store/mod.rs.tests.put_then_get',
    'crates/inventory/src/store/mod.rs.MemStore.put -> crates/inventory/src/store/mod.rs.tests.put_then_get',
  ],
  tests: [
    'crates/inventory/src/store/mod.rs.tests.put_then_get -> crates/inventory/src/model.rs.Item.new',
    'crates/inventory/src/store/mod.rs.tests.put_then_get -> crates/inventory/src/store/mod.rs.MemStore.get',
    'crates/inventory/src/store/mod.rs.tests.put_then_get -> crates/inventory/src/store/mod.rs.MemStore.new',
    'crates/inventory/src/store/mod.rs.tests.put_then_get -> crates/inventory/src/store/mod.rs.MemStore.put',
    'crates/inventory/tests/roundtrip.rs.stores_and_reads_back -> crates/inventory/src/lib.rs.open',
    'crates/inventory/tests/roundtrip.rs.stores_and_reads_back -> crates/inventory/src/model.rs.Item.new',
  ],
  throws: [
    'crates/inventory/src/store/mod.rs.MemStore.put -> crates/inventory/src/store/mod.rs.StoreError',
  ],
  type_hint_of: [
    'crates/inventory/src/lib.rs.open -> crates/inventory/src/store/mod.rs.MemStore',
    'crates/inventory/src/model.rs.Item.kind -> crates/inventory/src/model.rs.Kind',
    'crates/inventory/src/model.rs.Item.new -> crates/inventory/src/model.rs.Item',
    'crates/inventory/src/model.rs.Item.new -> crates/inventory/src/model.rs.Kind',
    'crates/inventory/src/report.rs.report -> crates/inventory/src/store/mod.rs.MemStore',
    'crates/inventory/src/store/index.rs.Index.add -> crates/inventory/src/model.rs.Item',
    'crates/inventory/src/store/index.rs.Index.count -> crates/inventory/src/model.rs.Kind',
    'crates/inventory/src/store/mod.rs.MemStore.get -> crates/inventory/src/model.rs.Item',
    'crates/inventory/src/store/mod.rs.MemStore.index -> crates/inventory/src/store/index.rs.Index',
    'crates/inventory/src/store/mod.rs.MemStore.items -> crates/inventory/src/model.rs.Item',
    'crates/inventory/src/store/mod.rs.MemStore.new -> crates/inventory/src/store/mod.rs.MemStore',
    'crates/inventory/src/store/mod.rs.MemStore.put -> crates/inventory/src/model.rs.Item',
    'crates/inventory/src/store/mod.rs.Result -> crates/inventory/src/store/mod.rs.StoreError',
    'crates/inventory/src/store/mod.rs.Store.get -> crates/inventory/src/model.rs.Item',
    'crates/inventory/src/store/mod.rs.Store.put -> crates/inventory/src/model.rs.Item',
    'crates/inventory/src/store/mod.rs.Store.put_all -> crates/inventory/src/model.rs.Item',
  ],
};

describe('go fixture graph', () => {
  let text: GraphText;
  let nodes: GraphNode[];
  let edges: GraphEdge[];

  beforeAll(async () => {
    ({ text, nodes, edges } = await fixtureGraph(path.join(fixtures, 'go'), goLanguage));
  });

  it('has exactly the expected nodes', () => {
    expect(text.nodes.map((line) => line.slice('node '.length))).toEqual(GO_NODES);
  });

  for (const [type, expected] of Object.entries(GO_EDGES)) {
    it(`has exactly the expected ${type} edges`, () => {
      expect(edgesOfType(text, type)).toEqual(expected);
    });
  }

  it('has no edge types beyond the expected ones and contains/member_of', () => {
    const types = new Set(text.edges.map((line) => line.split(' ')[1]));
    expect([...types].sort()).toEqual([...Object.keys(GO_EDGES), 'contains', 'member_of'].sort());
  });

  it('makes every definition a member of exactly one container, mirrored by contains', () => {
    const contains = new Set(edgesOfType(text, 'contains'));
    const memberOf = edgesOfType(text, 'member_of');
    const definitions = nodes.filter((node) => node.kind !== 'file' && !node.external);
    expect(memberOf).toHaveLength(definitions.length);
    for (const line of memberOf) {
      const [child, parent] = line.split(' -> ');
      expect(contains.has(`${parent} -> ${child}`)).toBe(true);
    }
  });

  it('reaches methods through the receiver, its fields and embedded structs, with the receiver-type confidence', () => {
    const byName = new Map(nodes.map((node) => [node.id, node.qualifiedName]));
    const find = (type: string, source: string, target: string): GraphEdge | undefined =>
      edges.find((e) => e.type === type && byName.get(e.source) === source && byName.get(e.target) === target);
    // s.Touch(): promoted from the embedded *Base
    expect(find('calls', 'store/store.go.MemStore.Get', 'store/base.go.Base.Touch')).toBeDefined();
    // srv.mem.Put(): the field's declared type, in another package
    expect(find('calls', 'api/handler.go.Server.reply', 'store/store.go.MemStore.Put')?.confidence).toBe(0.8);
    // v.Encode() in a type-switch case
    expect(find('calls', 'api/handler.go.Server.ServeHTTP', 'api/handler.go.yamlEncoder.Encode')).toBeDefined();
  });

  it('stores Go nodes with lines, signatures, docs and test flags', () => {
    const store = nodes.find((node) => node.qualifiedName === 'store/store.go.MemStore')!;
    expect(store).toMatchObject({ name: 'MemStore', kind: 'struct', language: 'go', file: 'store/store.go', startLine: 40, endLine: 45, signature: 'type MemStore struct', doc: 'MemStore is a Store in memory.', isTest: false });
    expect(nodes.find((node) => node.qualifiedName === 'api/handler_test.go.TestServeHTTP')?.isTest).toBe(true);
  });
});

describe('rust fixture graph', () => {
  let text: GraphText;
  let nodes: GraphNode[];
  let edges: GraphEdge[];

  beforeAll(async () => {
    ({ text, nodes, edges } = await fixtureGraph(path.join(fixtures, 'rust'), rustLanguage));
  });

  it('has exactly the expected nodes', () => {
    expect(text.nodes.map((line) => line.slice('node '.length))).toEqual(RUST_NODES);
  });

  for (const [type, expected] of Object.entries(RUST_EDGES)) {
    it(`has exactly the expected ${type} edges`, () => {
      expect(edgesOfType(text, type)).toEqual(expected);
    });
  }

  it('has no edge types beyond the expected ones and contains/member_of', () => {
    const types = new Set(text.edges.map((line) => line.split(' ')[1]));
    expect([...types].sort()).toEqual([...Object.keys(RUST_EDGES), 'contains', 'member_of'].sort());
  });

  it('makes every definition a member of exactly one container, mirrored by contains', () => {
    const contains = new Set(edgesOfType(text, 'contains'));
    const memberOf = edgesOfType(text, 'member_of');
    const definitions = nodes.filter((node) => node.kind !== 'file' && !node.external);
    expect(memberOf).toHaveLength(definitions.length);
    for (const line of memberOf) {
      const [child, parent] = line.split(' -> ');
      expect(contains.has(`${parent} -> ${child}`)).toBe(true);
    }
  });

  it('reaches methods through self, its fields, trait default methods and typed locals', () => {
    const byName = new Map(nodes.map((node) => [node.id, node.qualifiedName]));
    const find = (type: string, source: string, target: string): GraphEdge | undefined =>
      edges.find((e) => e.type === type && byName.get(e.source) === source && byName.get(e.target) === target);
    // self.index.add(): the field's type, imported from a sibling module file
    expect(find('calls', 'crates/inventory/src/store/mod.rs.MemStore.put', 'crates/inventory/src/store/index.rs.Index.add')?.confidence).toBe(0.8);
    // self.put() in a default method of the trait
    expect(find('calls', 'crates/inventory/src/store/mod.rs.Store.put_all', 'crates/inventory/src/store/mod.rs.Store.put')).toBeDefined();
    // let mut store = MemStore::new(2); store.put(..)
    expect(find('calls', 'crates/inventory/src/store/mod.rs.tests.put_then_get', 'crates/inventory/src/store/mod.rs.MemStore.put')).toBeDefined();
  });

  it('attaches impl methods to their type across files, and a cross-file `impl Trait for T` makes T implement Trait', () => {
    // impl Describe for MemStore lives in report.rs, MemStore in store/mod.rs.
    expect(edgesOfType(text, 'member_of')).toContain('crates/inventory/src/report.rs.MemStore.describe -> crates/inventory/src/store/mod.rs.MemStore');
    const byName = new Map(nodes.map((node) => [node.id, node]));
    const implementsEdge = edges.find(
      (e) => e.type === 'implements' && byName.get(e.source)?.qualifiedName === 'crates/inventory/src/store/mod.rs.MemStore' && byName.get(e.target)?.qualifiedName === 'crates/inventory/src/model.rs.Describe',
    );
    // Owned by report.rs, on the line of the impl, resolved through `use crate::model::Describe`.
    expect(implementsEdge).toMatchObject({ confidence: 0.9, provenance: 'ast_resolved', line: 4 });
    // No reference stands in for it any more.
    expect(edgesOfType(text, 'references').filter((line) => line.includes('Describe'))).toEqual([]);
  });

  it('stores Rust nodes with lines, signatures, docs and test flags', () => {
    const store = nodes.find((node) => node.qualifiedName === 'crates/inventory/src/store/mod.rs.MemStore')!;
    expect(store).toMatchObject({ name: 'MemStore', kind: 'struct', language: 'rust', startLine: 33, endLine: 37, signature: 'pub struct MemStore', doc: 'A store in memory.', isTest: false });
    expect(nodes.find((node) => node.qualifiedName === 'crates/inventory/src/store/mod.rs.tests.put_then_get')?.isTest).toBe(true);
  });
});
