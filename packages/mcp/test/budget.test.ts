/**
 * MCP answers keep the promise `knowing context` keeps: everything in an answer's text is at
 * most `token_budget` cl100k tokens and its header says the true count; code comes with the
 * best-ranked symbols unless the agent asks for names only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExactTokenizer } from '@knowing/pack';
import type { Tokenizer } from '@knowing/pack';
import { decodeGcf } from '@knowing/wire';
import type { GcfPackDocument } from '@knowing/wire';
import { call, scratchRepo, spawnServer, textOf } from './support/harness.js';
import type { Connected } from './support/harness.js';

describe('MCP answers within token_budget', () => {
  let repo: ReturnType<typeof scratchRepo>;
  let server: Connected;
  let tokenizer: Tokenizer;

  beforeAll(async () => {
    tokenizer = await createExactTokenizer();
    repo = scratchRepo();
    server = await spawnServer(repo.root, repo.db);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    repo?.cleanup();
  });

  it('never print more than the budget, in any text format, with the true count in the header', async () => {
    const failures: string[] = [];
    for (const format of ['gcf', 'xml', 'json', 'markdown']) {
      for (const budget of [150, 400, 1200, 5000]) {
        for (const include_code of [true, false]) {
          const result = await call(server.client, 'context_for_task', { task_description: 'search notes by query and highlight the terms', token_budget: budget, format, include_code });
          expect(result.isError).toBeFalsy();
          // The first content item is the answer; notes (first index, …) come after it.
          const answer = (result.content as { type: string; text: string }[])[0]!.text;
          const real = tokenizer.count(answer);
          const claimed =
            format === 'gcf'
              ? (decodeGcf(answer) as GcfPackDocument).tokens
              : format === 'xml'
                ? Number(/tokens_used="(\d+)"/.exec(answer)![1])
                : format === 'json'
                  ? (JSON.parse(answer) as { tokens_used: number }).tokens_used
                  : Number(/^Tokens: (\d+) \//m.exec(answer)![1]);
          if (real > budget) failures.push(`${format} ${budget} code=${include_code}: ${real} tokens`);
          if (claimed !== real) failures.push(`${format} ${budget} code=${include_code}: header ${claimed}, real ${real}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('bring code with the best-ranked symbols by default, and none with include_code: false', async () => {
    const task = { task_description: 'save the notebook to a json file', token_budget: 3000 };
    const withCode = decodeGcf(textOf(await call(server.client, 'context_for_task', task)).split('\nnote:')[0]!) as GcfPackDocument;
    const coded = withCode.nodes.filter((node) => !node.ref && node.code);
    expect(coded.length).toBeGreaterThan(0);
    expect(withCode.nodes.findIndex((node) => !node.ref && node.code)).toBeLessThan(3);
    const names = decodeGcf(textOf(await call(server.client, 'context_for_task', { ...task, include_code: false, format: 'gcf' })).split('\nnote:')[0]!) as GcfPackDocument;
    expect(names.nodes.some((node) => !node.ref && node.code)).toBe(false);
    // Every symbol line says where it is.
    for (const node of names.nodes) if (!node.ref) expect(node.location).toMatch(/^notely\/[\w/]+\.py:\d+(-\d+)?$/);
  });
});
