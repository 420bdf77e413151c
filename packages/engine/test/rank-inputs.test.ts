import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultRanker } from '@knowing/rank';
import type { RankContext, RankInput, Ranker } from '@knowing/rank';
import { lexicalQueryTerms } from '@knowing/keywords/lexical';
import { buildFileHistory, encodeFileHistory, FILE_HISTORY_COMMIT_NOTE, FILE_HISTORY_NOTE, relativeFileChurn, relativeFileHistory } from '@knowing/keywords';
import { createEngine } from '../src/index.js';
import { indexedFixture } from './helpers.js';

type Fixture = Awaited<ReturnType<typeof indexedFixture>>;

/** A formula ranker that keeps what the engine gave it. */
function recordingRanker(): Ranker & { inputs: RankInput[]; context: RankContext | undefined } {
  const formula = createDefaultRanker();
  const ranker = {
    name: 'recording',
    inputs: [] as RankInput[],
    context: undefined as RankContext | undefined,
    rank(inputs: readonly RankInput[], context: RankContext) {
      ranker.inputs = [...inputs];
      ranker.context = context;
      return formula.rank(inputs, context);
    },
  };
  return ranker;
}

const DAY = 86_400_000;

describe('what the engine tells the ranker', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await indexedFixture();
  }, 60_000);
  afterAll(async () => fixture?.cleanup());

  it('supplies the tier of a name match, the in-degree and when the file last changed', async () => {
    const ranker = recordingRanker();
    await createEngine({ store: fixture.store, ranker }).forTask('open_session should refuse an unsigned cookie', { fresh: true });
    const open = ranker.inputs.find((i) => i.node.qualifiedName === 'tinyweb/sessions.py.SessionInterface.open_session')!;
    expect(open.isSeed).toBe(true);
    expect(open.tier).toBe('exact');

    // In-degree: every edge that reaches the node, whatever its type (its class contains it, at least).
    const incoming = (await fixture.store.edgesTo(open.node.id)).length;
    expect(incoming).toBeGreaterThan(0);
    expect(open.inDegree).toBe(incoming);

    const files = new Map((await fixture.store.listFiles()).map((f) => [f.path, f.indexedAt]));
    for (const input of ranker.inputs) expect(input.lastModified).toBe(files.get(input.node.file));
  });

  it('leaves out when each file last changed for a ranker that says it never reads it', async () => {
    const blind = Object.assign(recordingRanker(), { reads: { fileTimes: false } });
    await createEngine({ store: fixture.store, ranker: blind }).forTask('open_session should refuse an unsigned cookie', { fresh: true });
    expect(blind.inputs.length).toBeGreaterThan(0);
    expect(blind.inputs.every((input) => input.lastModified === undefined)).toBe(true);
  });

  it('gives each candidate its per-field lexical scores when the ranker reads them, and only then', async () => {
    const task = 'tampered payloads must fail the hmac digest comparison';
    const plain = recordingRanker();
    await createEngine({ store: fixture.store, ranker: plain }).forTask(task, { fresh: true });
    expect(plain.inputs.some((i) => i.lexicalFields !== undefined)).toBe(false);

    const reading = Object.assign(recordingRanker(), { reads: { lexicalFields: true } });
    await createEngine({ store: fixture.store, ranker: reading }).forTask(task, { fresh: true });
    const open = reading.inputs.find((i) => i.node.qualifiedName === 'tinyweb/sessions.py.SessionInterface.open_session')!;
    // Its body holds the task's words, its name none of them.
    expect(open.lexicalFields!.body).toBeGreaterThan(0);
    expect(open.lexicalFields!.name ?? 0).toBe(0);
    // Candidates beyond the lexical channel's hits are scored too, each as a search weighting only that field scores it.
    const alone = await fixture.store.lexicalSearch(lexicalQueryTerms(task), { fieldWeights: { name: 0, path: 0, signature: 0, doc: 0, body: 1, members: 0 }, includeTests: true, limit: 1000 });
    const byBody = new Map(alone.map((h) => [h.node.id, h.score]));
    for (const input of reading.inputs) expect(input.lexicalFields?.body ?? 0).toBeCloseTo(byBody.get(input.node.id) ?? 0, 9);
  });

  it('gives each candidate its file history score when the ranker reads it, and says when the index keeps none', async () => {
    const task = 'cookies signed with a rotated secret key are refused';
    const history = buildFileHistory([
      { message: 'Refuse cookies signed with an old secret key after rotation', files: ['tinyweb/sessions.py'] },
      { message: 'Route requests to the matching view', files: ['tinyweb/routing.py', 'tinyweb/sessions.py'] },
    ], { commit: 'c1' });
    await fixture.store.putNote(FILE_HISTORY_NOTE, FILE_HISTORY_NOTE, encodeFileHistory(history), null);
    await fixture.store.putNote(FILE_HISTORY_COMMIT_NOTE, FILE_HISTORY_COMMIT_NOTE, new TextEncoder().encode('c1'), null);
    try {
      const plain = recordingRanker();
      await createEngine({ store: fixture.store, ranker: plain }).forTask(task, { fresh: true });
      expect(plain.inputs.some((i) => i.fileHistory !== undefined)).toBe(false);
      expect(plain.context!.fileHistory).toBeUndefined();

      const reading = Object.assign(recordingRanker(), { reads: { fileHistory: true } });
      await createEngine({ store: fixture.store, ranker: reading }).forTask(task, { fresh: true });
      expect(reading.context!.fileHistory).toBe(true);
      const expected = relativeFileHistory(history, task, reading.inputs.map((i) => i.node.file));
      expect(expected.get('tinyweb/sessions.py')).toBe(1);
      for (const input of reading.inputs) expect(input.fileHistory).toBe(expected.get(input.node.file));
      expect(reading.inputs.some((i) => i.node.file === 'tinyweb/sessions.py')).toBe(true);
      // The churn, whatever the task: sessions.py has two commits' words, routing.py one commit's.
      const churn = relativeFileChurn(history, reading.inputs.map((i) => i.node.file));
      expect(churn.get('tinyweb/sessions.py')).toBe(1);
      for (const input of reading.inputs) expect(input.fileChurn).toBe(churn.get(input.node.file));
      expect(reading.inputs.some((i) => i.node.file === 'tinyweb/routing.py')).toBe(true);
      expect(churn.get('tinyweb/routing.py')).toBeGreaterThan(0);
      expect(churn.get('tinyweb/routing.py')).toBeLessThan(1);
      expect(plain.inputs.some((i) => i.fileChurn !== undefined)).toBe(false);
    } finally {
      await fixture.store.deleteNote(FILE_HISTORY_NOTE);
      await fixture.store.deleteNote(FILE_HISTORY_COMMIT_NOTE);
    }
    const without = Object.assign(recordingRanker(), { reads: { fileHistory: true } });
    await createEngine({ store: fixture.store, ranker: without }).forTask(task, { fresh: true });
    expect(without.context!.fileHistory).toBe(false);
    expect(without.inputs.some((i) => i.fileHistory !== undefined)).toBe(false);
    expect(without.inputs.some((i) => i.fileChurn !== undefined)).toBe(false);
  });

  it('the hub damping threshold of the ranking options now changes scores', async () => {
    const task = 'dispatch a request to the matching route';
    const options = (threshold: number) => ({ rankingModel: 'formula' as const, ranking: { hubDampingThreshold: threshold } });
    const plain = await createEngine({ store: fixture.store, options: options(0) }).forTask(task, { fresh: true });
    const damped = await createEngine({ store: fixture.store, options: options(1) }).forTask(task, { fresh: true });
    expect(plain.ranked.every((s) => s.components['hub_damping'] === 0)).toBe(true);
    expect(damped.ranked.some((s) => s.components['hub_damping']! < 0)).toBe(true);
  });

  it('commit recency favours the symbols of a file changed since the last index', async () => {
    appendFileSync(join(fixture.root, 'tinyweb/sessions.py'), '\n\ndef rotate_key(old, new):\n    return new\n');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await fixture.reindex();
    const changed = (await fixture.store.listFiles()).find((f) => f.path === 'tinyweb/sessions.py')!.indexedAt;
    // The clock stands 1,000 days after the change: only the changed file is within the bucket.
    const engine = createEngine({
      store: fixture.store,
      now: () => changed + 1000 * DAY,
      options: { rankingModel: 'formula', ranking: { commitRecency: [{ maxAgeMs: 1000 * DAY, bonus: 0.5 }] } },
    });
    const { ranked } = await engine.forTask('sign the session cookie and dispatch the request', { fresh: true });
    const bonus = (file: string) => ranked.filter((s) => s.node.file === file).map((s) => s.components['commit_recency']);
    expect(bonus('tinyweb/sessions.py').length).toBeGreaterThan(0);
    expect(new Set(bonus('tinyweb/sessions.py'))).toEqual(new Set([0.5]));
    const others = ranked.filter((s) => s.node.file !== 'tinyweb/sessions.py');
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((s) => s.components['commit_recency'] === 0)).toBe(true);
  });
});
