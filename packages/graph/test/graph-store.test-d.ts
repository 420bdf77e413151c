import { describe, expectTypeOf, it } from 'vitest';
import type {
  FeedbackStore,
  GraphNode,
  GraphReader,
  GraphStore,
  GraphWriter,
  NoteStore,
  SnapshotStore,
  TextSearch,
  VocabStore,
  WriteBatch,
  WriteResult,
} from '@knowing/graph';
import { testGraphStore } from '@knowing/graph/testing';

declare const store: GraphStore;

describe('the GraphStore contract', () => {
  it('is every store role plus close(), all asynchronous', () => {
    expectTypeOf(store).toExtend<GraphReader>();
    expectTypeOf(store).toExtend<GraphWriter>();
    expectTypeOf(store).toExtend<TextSearch>();
    expectTypeOf(store).toExtend<NoteStore>();
    expectTypeOf(store).toExtend<FeedbackStore>();
    expectTypeOf(store).toExtend<VocabStore>();
    expectTypeOf(store).toExtend<SnapshotStore>();
    expectTypeOf(store.close).returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf(store.getNode).returns.toEqualTypeOf<Promise<GraphNode | undefined>>();
    expectTypeOf(store.applyBatch).parameter(0).toEqualTypeOf<WriteBatch>();
    expectTypeOf(store.applyBatch).returns.toEqualTypeOf<Promise<WriteResult>>();
    expectTypeOf(store.allNodes()).toEqualTypeOf<AsyncIterable<GraphNode>>();
  });

  it('lets a read-only consumer depend on GraphReader alone', () => {
    const countFiles = async (reader: GraphReader): Promise<number> => (await reader.listFiles()).length;
    expectTypeOf(countFiles).toBeCallableWith(store);
    // A reader is not a store: it cannot write or be closed.
    // @ts-expect-error GraphReader has no applyBatch
    const writer: GraphWriter = {} as GraphReader;
    // @ts-expect-error a GraphReader is missing the writer, search, note, feedback, vocab and snapshot roles
    const full: GraphStore = {} as GraphReader;
    void [writer, full];
  });

  it('rejects synchronous or incomplete implementations', () => {
    const reader: GraphReader = {} as GraphStore;
    // @ts-expect-error close() returns a promise
    const syncClose: GraphStore = { ...store, close: () => undefined };
    // @ts-expect-error getNode() is asynchronous
    const syncGet: GraphReader = { ...reader, getNode: (id: string) => ({ id }) as unknown as GraphNode };
    void [syncClose, syncGet];
  });

  it('runs the conformance kit on a store factory', () => {
    expectTypeOf(testGraphStore).toBeCallableWith('mine', async () => store);
    // @ts-expect-error the kit takes a factory, so every test gets a fresh store
    testGraphStore('mine', store);
  });
});
