/**
 * Random and adversarial input against a real server process over stdio: random bytes,
 * random JSON, and requests of the right shape with random parameters and tool arguments.
 * Whatever comes in, the server must not crash or hang, must write only JSON-RPC to stdout,
 * and must answer every request that carries an id (with a result or an error).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FORMATS, TOOL_NAMES } from '../src/index.js';
import { scratchRepo } from './support/harness.js';
import { spawnRaw } from './support/raw.js';
import type { RawServer } from './support/raw.js';

/** A line to send; `request` lines get a fresh id when sent, and must be answered. */
type Item = { readonly kind: 'line'; readonly text: string | Buffer } | { readonly kind: 'request'; readonly message: Record<string, unknown> };

const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'logging/setLevel',
  'completion/complete',
  'tasks/get',
  'tasks/list',
  'notifications/initialized',
] as const;

const PATHS = ['notely/search.py', 'notely', './tests', '..', '../x.py', '/etc/passwd', '.', '..dotdot.py', 'notely/../../x', 'a\\b', '\0', ' '];

/** Values a tool argument may get: mostly near the right type, sometimes anything. */
const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 80 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }) },
  { weight: 2, arbitrary: fc.array(fc.constantFrom('search', 'notes', 'query', 'tag', 'save', 'json', 'Notebook', 'add_note', '`tokenize`', 'highlight'), { minLength: 1, maxLength: 8 }).map((words) => words.join(' ')) },
  { weight: 1, arbitrary: fc.constantFrom('', '   ', 'x'.repeat(25_000), 'Traceback (most recent call last):\n  File "notely/search.py", line 9, in tokenize') },
);
const anyJson = fc.jsonValue({ maxDepth: 3 });
/** Mostly a value of the usual kind, sometimes any JSON at all. */
const argument = <T>(usual: fc.Arbitrary<T>) => fc.oneof({ weight: 20, arbitrary: usual }, { weight: 1, arbitrary: anyJson });
/** Mostly a value the tool takes, sometimes one just outside. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) => argument(fc.oneof({ weight: 8, arbitrary: valid }, { weight: 1, arbitrary: invalid }));
const budget = mostly(fc.integer({ min: 1, max: 5_000 }), fc.oneof(fc.integer({ min: -10, max: 0 }), fc.double(), fc.constant(2_000_001)));
const format = mostly(fc.constantFrom(...FORMATS), fc.string({ maxLength: 8 }));
const packRoot = mostly(fc.stringMatching(/^[0-9a-f]{64}$/), fc.string({ maxLength: 70 }));
const files = mostly(fc.array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PATHS) }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }) }), { minLength: 1, maxLength: 3 }), fc.constant([]));
const names = argument(fc.array(fc.oneof(fc.constantFrom('tokenize', 'notely/search.py.search_notes', 'Notebook.add_note', '__init__'), text), { minLength: 1, maxLength: 3 }));

/** Arguments of each tool: its own keys with values near the right type (and now and then an unknown key). */
const ARGUMENTS: Record<(typeof TOOL_NAMES)[number], fc.Arbitrary<Record<string, unknown>>> = {
  context_for_task: fc.record({ task_description: argument(text), token_budget: budget, format, pack_root: packRoot }, { requiredKeys: ['task_description'] }),
  context_for_files: fc.record({ files, token_budget: budget, format, pack_root: packRoot }, { requiredKeys: ['files'] }),
  context_for_pr: fc.record({ files, token_budget: budget, format, pack_root: packRoot }, { requiredKeys: [] }),
  explain_symbol: fc.record({ task_description: argument(text), symbol: argument(text), token_budget: budget }, { requiredKeys: ['task_description', 'symbol'] }),
  feedback: fc.record({ symbols: names, useful: argument(fc.boolean()) }, { requiredKeys: ['symbols', 'useful'] }),
  index_status: fc.constant({}),
  reindex: fc.record({ full: argument(fc.boolean()) }, { requiredKeys: [] }),
};

const toolCall: fc.Arbitrary<Item> = fc
  .tuple(
    fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...TOOL_NAMES) }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) }),
    fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: anyJson }),
    fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 2 }) }),
    fc.option(fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), anyJson), { nil: undefined }),
  )
  .chain(([name, replacement, extra, progressToken]) =>
    (Object.hasOwn(ARGUMENTS, name) ? ARGUMENTS[name as keyof typeof ARGUMENTS] : fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 3 })).map((args) => ({
      kind: 'request' as const,
      message: {
        method: 'tools/call',
        params: {
          name,
          arguments: replacement === undefined ? { ...args, ...extra } : replacement,
          ...(progressToken === undefined ? {} : { _meta: { progressToken } }),
        },
      },
    })),
  );

const request: fc.Arbitrary<Item> = fc
  .record(
    {
      method: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) }),
      params: fc.oneof(fc.constant(undefined), fc.constant(null), anyJson, fc.object({ maxDepth: 2 })),
    },
    { requiredKeys: ['method'] },
  )
  .map(({ method, params }) => ({ kind: 'request', message: { method, ...(params === undefined ? {} : { params }) } }));

/** Random bytes, without the newline that would end the line early. */
const bytes: fc.Arbitrary<Item> = fc.uint8Array({ maxLength: 120 }).map((array) => ({ kind: 'line', text: Buffer.from(array.filter((byte) => byte !== 0x0a)) }));
const jsonText: fc.Arbitrary<Item> = fc.json({ maxDepth: 3 }).map((json) => ({ kind: 'line', text: json.replace(/\n/g, ' ') }));
/** Almost JSON-RPC: the envelope broken one way or another. */
const nearMiss: fc.Arbitrary<Item> = fc
  .record({
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('1.0'), anyJson),
    id: fc.oneof(fc.constant(null), fc.double(), anyJson),
    method: fc.oneof(fc.constantFrom(...METHODS), anyJson),
    result: anyJson,
  }, { requiredKeys: [] })
  .map((message) => ({ kind: 'line', text: JSON.stringify(message) }));
const batch: fc.Arbitrary<Item> = fc.array(fc.oneof(anyJson, fc.constant({ jsonrpc: '2.0', id: 1, method: 'ping' })), { maxLength: 4 }).map((array) => ({ kind: 'line', text: JSON.stringify(array) }));

const item: fc.Arbitrary<Item> = fc.oneof(
  { weight: 4, arbitrary: toolCall },
  { weight: 3, arbitrary: request },
  { weight: 2, arbitrary: bytes },
  { weight: 2, arbitrary: jsonText },
  { weight: 2, arbitrary: nearMiss },
  { weight: 1, arbitrary: batch },
);

describe('fuzzing the stdio server', () => {
  let repo: ReturnType<typeof scratchRepo>;
  let server: RawServer;
  let sent = 0;

  beforeAll(async () => {
    repo = scratchRepo();
    server = spawnRaw(repo.root, repo.db);
    await server.initialize();
  }, 60_000);

  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
    repo?.cleanup();
  });

  it('answers every request with an id, writes only JSON-RPC, and keeps running, whatever the input', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 12 }), async (items) => {
        const ids: string[] = [];
        for (const entry of items) {
          if (entry.kind === 'line') {
            server.line(entry.text);
            continue;
          }
          // An id no random value produces, so its response is the one to this request.
          const id = `fuzz-${sent++}`;
          ids.push(id);
          server.line(JSON.stringify({ jsonrpc: '2.0', id, ...entry.message }));
        }
        for (const id of ids) {
          const response = await server.response(id, 60_000);
          expect(response['jsonrpc']).toBe('2.0');
          if ('error' in response) {
            const error = response['error'] as { code: unknown; message: unknown };
            expect(Number.isInteger(error.code)).toBe(true);
            expect(typeof error.message).toBe('string');
          } else {
            expect(typeof response['result']).toBe('object');
          }
        }
        expect(server.alive()).toBe(true);
        expect(server.garbage).toEqual([]);
      }),
      { numRuns: 60, interruptAfterTimeLimit: 150_000 },
    );
    // Still serving after all of it.
    expect(await server.request('after-fuzz', 'ping')).toEqual({ jsonrpc: '2.0', id: 'after-fuzz', result: {} });
    expect(server.stderr()).not.toMatch(/Uncaught|UnhandledPromiseRejection|TypeError|RangeError/);
  }, 200_000);
});
