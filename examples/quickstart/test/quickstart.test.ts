import { describe, expect, it } from 'vitest';
import { quickstart } from '../src/quickstart.js';
import { symbols } from '../src/shop-graph.js';

describe('quickstart', () => {
  it('finds the before_request hook first, by name before doc mentions', async () => {
    const { hits } = await quickstart('before_request');
    expect(hits[0]?.node.id).toBe(symbols.before_request.id);
    expect(hits.map((h) => h.node.id)).toContain(symbols.dispatch.id);
  });

  it('finds the session code by a part of a CamelCase name', async () => {
    const { hits } = await quickstart('store');
    // SessionStore by name; its method through its qualified name (…SessionStore.load_session).
    expect(hits.map((h) => h.node.id)).toEqual([symbols.SessionStore.id, symbols.load_session.id]);
  });

  it('records the graph: counts in the snapshot and callers by edge', async () => {
    const { snapshot, callersOfLoadSession } = await quickstart('session');
    expect(snapshot.nodeCount).toBe(Object.keys(symbols).length);
    expect(snapshot.edgeCount).toBe(7);
    expect(callersOfLoadSession).toEqual([symbols.add_to_cart.qualifiedName]);
  });
});
