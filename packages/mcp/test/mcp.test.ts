/**
 * End to end: the server runs as a child process (from the TypeScript sources) and the SDK's
 * real client talks to it over stdio, the way an agent's MCP client does.
 */
import { appendFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeGcb } from '@knowing/wire';
import { call, packRootOf, scratchRepo, spawnServer, textOf } from './support/harness.js';
import type { Connected } from './support/harness.js';

const TOOLS = ['context_for_task', 'context_for_files', 'context_for_pr', 'explain_symbol', 'feedback', 'index_status', 'reindex'];

describe('knowing MCP server over stdio', () => {
  let repo: ReturnType<typeof scratchRepo>;
  let server: Connected;

  beforeAll(async () => {
    repo = scratchRepo();
    server = await spawnServer(repo.root, repo.db);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    repo?.cleanup();
  });

  it('lists the seven tools with their argument schemas', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    const task = tools.find((t) => t.name === 'context_for_task')!;
    expect(task.inputSchema.required).toEqual(['task_description']);
    expect(Object.keys(task.inputSchema.properties ?? {})).toEqual(['task_description', 'token_budget', 'format', 'include_code', 'pack_root']);
    expect((task.inputSchema.properties as Record<string, { enum?: string[] }>).format!.enum).toEqual(['gcf', 'xml', 'markdown', 'json', 'gcb']);
    expect(task.inputSchema).toMatchObject({ additionalProperties: false });
    const feedback = tools.find((t) => t.name === 'feedback')!;
    expect(feedback.inputSchema.required).toEqual(['symbols', 'useful']);
    expect(tools.find((t) => t.name === 'index_status')!.outputSchema).toBeDefined();
    for (const tool of tools) expect(tool.description, tool.name).toBeTruthy();
  });

  it('indexes on first use and answers a task in gcf', async () => {
    const result = await call(server.client, 'context_for_task', { task_description: 'search notes by query and highlight the terms' });
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    expect(text).toMatch(/^GCF profile=graph tool=context_for_task budget=50000 /);
    expect(text).toContain('session=true');
    expect(text).toContain('notely/search.py.search_notes');
    expect(text).toContain('indexed this repository for the first time');
    expect(packRootOf(result)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers "unchanged" when the agent already holds the same pack', async () => {
    const args = { task_description: 'save the notebook to a json file', token_budget: 120 };
    const first = await call(server.client, 'context_for_task', args);
    const root = packRootOf(first);
    const again = await call(server.client, 'context_for_task', { ...args, pack_root: root });
    expect(again.isError).toBeFalsy();
    expect(textOf(again)).toBe(`GCF tool=context_for_task unchanged=true pack_root=${root} symbols=${/symbols=(\d+)/.exec(textOf(first))![1]}\n`);
    // In another format, one line naming the root. (The budget counts each format's own
    // cost, so the same budget in markdown selects its own pack.)
    const markdownArgs = { ...args, format: 'markdown', token_budget: 2000 };
    const markdownRoot = packRootOf(await call(server.client, 'context_for_task', markdownArgs));
    const markdown = await call(server.client, 'context_for_task', { ...markdownArgs, pack_root: markdownRoot });
    expect(textOf(markdown)).toBe(`unchanged: pack_root ${markdownRoot} (${/\d+/.exec(textOf(markdown).split('(')[1]!)![0]} symbols) is the pack you already have.\n`);
  });

  it('sends a later gcf answer as references to symbols it already sent', async () => {
    const result = await call(server.client, 'context_for_task', { task_description: 'tokenize text for search' });
    expect(textOf(result)).toContain('# sent before');
  });

  it('sees an edit in the next answer', async () => {
    const task = 'export the notebook as markdown';
    const before = await call(server.client, 'context_for_task', { task_description: task });
    expect(textOf(before)).not.toContain('export_markdown');
    appendFileSync(
      path.join(repo.root, 'notely', 'storage.py'),
      '\n\ndef export_markdown(notebook):\n    """The notebook as a markdown document, one heading per note."""\n    return "\\n\\n".join("# " + note.title + "\\n" + note.body for note in notebook.notes)\n',
    );
    const after = await call(server.client, 'context_for_task', { task_description: task, pack_root: packRootOf(before) });
    expect(after.isError).toBeFalsy();
    const text = textOf(after);
    expect(text).toMatch(/\n@\d+ fn notely\/storage\.py\.export_markdown /);
    expect(text).toMatch(/re-indexed 1 changed file\(s\) \(1 stale\) in \d+ ms before answering/);
    expect(packRootOf(after)).not.toBe(packRootOf(before));
  });

  it('answers a smaller budget for a pack the agent holds with a delta or a shorter pack, within the budget', async () => {
    const task = 'highlight the query terms in a note';
    // Names only: with code, a smaller budget would first shorten the code and keep the symbols.
    const first = await call(server.client, 'context_for_task', { task_description: task, include_code: false, format: 'gcf' });
    const firstText = textOf(first).split('\nnote:')[0]!;
    const tokens = Number(/ tokens=(\d+) /.exec(firstText)![1]);
    const budget = Math.floor(tokens * 0.8);
    const smaller = await call(server.client, 'context_for_task', { task_description: task, include_code: false, token_budget: budget, pack_root: packRootOf(first) });
    expect(smaller.isError).toBeFalsy();
    const text = textOf(smaller);
    expect(text).not.toContain('unchanged=true');
    // In a session the full answer writes symbols sent before as one-line references, so it is
    // often shorter than a delta; either way the answer holds the budget.
    if (text.startsWith('GCF tool=context_for_task delta=true')) {
      expect(text).toMatch(new RegExp(`^GCF tool=context_for_task delta=true base_root=${packRootOf(first)} new_root=[0-9a-f]{64} tokens=\\d+ savings=\\d+%\n## removed\n`));
    } else {
      expect(text).toMatch(/^GCF profile=graph /);
      expect(Number(/ symbols=(\d+) /.exec(text)![1])).toBeLessThan(Number(/ symbols=(\d+) /.exec(firstText)![1]));
    }
    expect(Number(/ budget=(\d+) /.exec(text)?.[1] ?? budget)).toBe(budget);
  });

  it('sends the full pack when the pack_root is not one it remembers', async () => {
    const result = await call(server.client, 'context_for_task', { task_description: 'add a tag to a note', pack_root: 'a'.repeat(64) });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/^GCF profile=graph /);
    expect(textOf(result)).toContain('is not among the last 16 packs');
  });

  it('renders xml, markdown, json and gcb on request', async () => {
    const task = 'remove a note from the notebook';
    const xml = textOf(await call(server.client, 'context_for_task', { task_description: task, format: 'xml', token_budget: 3000 }));
    expect(xml).toContain('pack_root="');
    expect(xml).toContain('remove_note');
    const markdown = textOf(await call(server.client, 'context_for_task', { task_description: task, format: 'markdown', token_budget: 3000 }));
    expect(markdown).toMatch(/^# Context: remove a note from the notebook/);
    const json = JSON.parse(textOf(await call(server.client, 'context_for_task', { task_description: task, format: 'json', token_budget: 3000 })).split('\n')[0]!) as {
      pack_root: string;
      symbols: { qualified_name: string }[];
    };
    expect(json.pack_root).toMatch(/^[0-9a-f]{64}$/);
    expect(json.symbols.map((s) => s.qualified_name)).toContain('notely/models.py.Notebook.remove_note');
    const gcb = await call(server.client, 'context_for_task', { task_description: task, format: 'gcb', token_budget: 3000 });
    const blob = gcb.content.find((c) => c.type === 'resource');
    expect(blob).toMatchObject({ type: 'resource', resource: { mimeType: 'application/x-gcb' } });
    const document = decodeGcb(Buffer.from((blob as { resource: { blob: string } }).resource.blob, 'base64'));
    expect(document.symbols.map((s) => s.qualifiedName)).toContain('notely/models.py.Notebook.remove_note');
    expect(document.packRoot).toMatch(/^[0-9a-f]{64}$/);
    expect(textOf(gcb)).toContain(`pack_root=${document.packRoot}`);
  });

  it('answers context_for_files for files and directories', async () => {
    const result = await call(server.client, 'context_for_files', { files: ['notely/search.py'], format: 'markdown' });
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    expect(text).toContain('`notely/search.py.search_notes`');
    // run_search calls search_notes: a direct caller.
    expect(text).toContain('`notely/cli.py.run_search`');
    const directory = textOf(await call(server.client, 'context_for_files', { files: ['./tests'], format: 'markdown' }));
    expect(directory).toContain('tests/test_search.py.test_tokenize_lowercases');
  });

  it('says which files are not indexed instead of answering with nothing', async () => {
    writeFileSync(path.join(repo.root, 'NOTES.txt'), 'not code\n');
    const none = await call(server.client, 'context_for_files', { files: ['NOTES.txt', 'missing.py'] });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toContain('none of the files is in the index: NOTES.txt, missing.py');
    expect(textOf(none)).toContain('(NOT_FOUND)');
    const some = await call(server.client, 'context_for_files', { files: ['notely/models.py', 'NOTES.txt'] });
    expect(some.isError).toBeFalsy();
    expect(textOf(some)).toContain('not in the index (unsupported language, ignored, or missing): NOTES.txt');
  });

  it('answers context_for_pr for explicit files and for the working-tree diff', async () => {
    const explicit = await call(server.client, 'context_for_pr', { files: ['notely/models.py'] });
    expect(explicit.isError).toBeFalsy();
    expect(textOf(explicit)).toMatch(/^GCF profile=graph tool=context_for_pr budget=8000 /);
    // notely/storage.py was edited above and is uncommitted: the default diff finds it.
    const diff = await call(server.client, 'context_for_pr', { format: 'markdown' });
    expect(diff.isError).toBeFalsy();
    expect(textOf(diff)).toContain('# Context: changes: notely/storage.py');
    expect(textOf(diff)).toContain('notely/storage.py.export_markdown');
  });

  it('explains why a symbol is or is not in an answer', async () => {
    const found = await call(server.client, 'explain_symbol', { task_description: 'search notes by query', symbol: 'search_notes' });
    expect(found.isError).toBeFalsy();
    const text = textOf(found);
    expect(text).toMatch(/^# `search_notes` for the task "search notes by query"/);
    expect(text).toMatch(/\*\*Verdict:\*\* packed — in the answer, rank \d+, score/);
    expect(text).toContain('notely/search.py.search_notes');
    expect(text).toContain('## Score components');
    const missing = textOf(await call(server.client, 'explain_symbol', { task_description: 'search notes', symbol: 'score' }));
    expect(missing).toContain('not in the index');
    expect(missing).toContain('notely/search.py.score_note');
  });

  it('records feedback by id, qualified name and plain name, and names what it cannot find', async () => {
    const json = JSON.parse(textOf(await call(server.client, 'context_for_task', { task_description: 'count the words of a note', format: 'json' })).split('\n')[0]!) as {
      symbols: { id: string; qualified_name: string }[];
    };
    const wordCount = json.symbols.find((s) => s.qualified_name === 'notely/models.py.Note.word_count')!;
    const ok = await call(server.client, 'feedback', { symbols: [wordCount.id, 'notely/search.py.tokenize', 'highlight', 'Notebook.add_note'], useful: true });
    expect(ok.isError).toBeFalsy();
    expect(textOf(ok)).toBe(
      'Recorded useful for 4 symbols: notely/models.py.Note.word_count, notely/search.py.tokenize, notely/search.py.highlight, notely/models.py.Notebook.add_note\n',
    );
    const no = await call(server.client, 'feedback', { symbols: ['notely/cli.py.main'], useful: false });
    expect(textOf(no)).toBe('Recorded not useful for 1 symbol: notely/cli.py.main\n');
    const bad = await call(server.client, 'feedback', { symbols: ['tokenize', 'no_such_symbol', '__init__'], useful: true });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('no feedback recorded; not found: "no_such_symbol"');
    expect(textOf(bad)).toMatch(/ambiguous: "__init__" \(could be .*Note\.__init__/);
  });

  it('reports index status, including files changed on disk since the last index', async () => {
    const clean = await call(server.client, 'index_status');
    expect(clean.isError).toBeFalsy();
    const status = clean.structuredContent as Record<string, unknown>;
    expect(status).toMatchObject({ indexed: true, files: 6, stale_files: 0, repo_root: expect.stringContaining('repo') });
    expect(status.nodes).toBeGreaterThan(40);
    expect((status.edges_by_type as Record<string, number>).calls).toBeGreaterThan(10);
    expect(status.snapshot).toMatch(/^[0-9a-f]+$/);
    expect(textOf(clean)).toContain('stale files: 0');
    appendFileSync(path.join(repo.root, 'notely', 'cli.py'), '\n\ndef run_tags(storage):\n    """Print every tag in use."""\n    return sorted({t for n in storage.load().notes for t in n.tags})\n');
    writeFileSync(path.join(repo.root, 'notely', 'export.py'), 'def to_csv(notebook):\n    return "\\n".join(n.title for n in notebook.notes)\n');
    const stale = (await call(server.client, 'index_status')).structuredContent as { stale_files: number; stale: { changed: string[]; added: string[] } };
    expect(stale.stale_files).toBe(2);
    expect(stale.stale.changed).toEqual(['notely/cli.py']);
    expect(stale.stale.added).toEqual(['notely/export.py']);
  });

  it('re-indexes on request, incrementally or in full', async () => {
    const incremental = await call(server.client, 'reindex', {});
    expect(incremental.isError).toBeFalsy();
    expect(textOf(incremental)).toMatch(/\(incremental run\)/);
    expect(textOf(incremental)).toContain('7 discovered, 2 parsed, 5 unchanged');
    const full = await call(server.client, 'reindex', { full: true });
    expect(textOf(full)).toMatch(/\(full run\)/);
    expect(textOf(full)).toContain('7 discovered, 7 parsed');
    const status = (await call(server.client, 'index_status')).structuredContent as { stale_files: number; files: number };
    expect(status).toMatchObject({ stale_files: 0, files: 7 });
  });

  it.each([
    ['a missing task', 'context_for_task', {}, /expected a task description .*, got nothing at task_description/],
    ['an empty task', 'context_for_task', { task_description: '   ' }, /got an empty string at task_description/],
    ['a task of the wrong type', 'context_for_task', { task_description: 42 }, /got number 42 at task_description/],
    ['a negative budget', 'context_for_task', { task_description: 'x', token_budget: -5 }, /expected a token budget \(a whole number ≥ 1\), got number -5 at token_budget/],
    ['a fractional budget', 'context_for_task', { task_description: 'x', token_budget: 10.5 }, /got number 10.5 at token_budget/],
    ['a budget as a string', 'context_for_task', { task_description: 'x', token_budget: '8000' }, /got "8000" at token_budget/],
    ['an unknown format', 'context_for_task', { task_description: 'x', format: 'yaml' }, /expected one of gcf, xml, markdown, json, gcb, got "yaml" at format/],
    ['a malformed pack root', 'context_for_task', { task_description: 'x', pack_root: 'abc' }, /expected a pack root: 64 lowercase hex characters/],
    ['an unknown argument', 'context_for_task', { task: 'x' }, /unknown argument task; this tool takes task_description, token_budget, format, include_code, pack_root/],
    ['files as a string', 'context_for_files', { files: 'notely/search.py' }, /expected files \(an array of paths relative to the repository root\), got "notely\/search.py" at files/],
    ['no files', 'context_for_files', { files: [] }, /expected at least one path in files/],
    ['a missing symbol', 'explain_symbol', { task_description: 'x' }, /expected a symbol name, got nothing at symbol/],
    ['useful as a string', 'feedback', { symbols: ['tokenize'], useful: 'yes' }, /expected useful to be true or false, got "yes" at useful/],
    ['full as a number', 'reindex', { full: 1 }, /expected full to be true or false, got number 1 at full/],
  ])('rejects %s with a clear invalid-params error', async (_label, tool, args, message) => {
    const result = await call(server.client, tool, args as Record<string, unknown>);
    // SDK 1.32 reports argument validation failures as tool results with isError, carrying the
    // JSON-RPC code (-32602 InvalidParams) in the text, so the model can correct its call.
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(new RegExp(`^MCP error -32602: Input validation error: Invalid arguments for tool ${tool}: `));
    expect(text).toMatch(message);
  });

  it('reports an unknown tool', async () => {
    const result = await call(server.client, 'context_for_everything', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('MCP error -32602: Tool context_for_everything not found');
  });

  it('rejects paths that leave the repository', async () => {
    const outside = path.join(repo.dir, 'secret.py');
    writeFileSync(outside, 'API_KEY = "hunter2"\n');
    mkdirSync(path.join(repo.root, 'links'), { recursive: true });
    symlinkSync(outside, path.join(repo.root, 'links', 'secret.py'));
    symlinkSync(repo.dir, path.join(repo.root, 'links', 'up'));
    const attempts: [string, unknown, RegExp][] = [
      ['context_for_files', { files: ['../../etc/passwd'] }, /files\[0\] "\.\.\/\.\.\/etc\/passwd" resolves to .*, outside the repository root/],
      ['context_for_files', { files: ['notely/models.py', '/etc/passwd'] }, /files\[1\] "\/etc\/passwd" resolves to \/etc\/passwd, outside the repository root/],
      ['context_for_files', { files: ['notely/../../secret.py'] }, /outside the repository root/],
      ['context_for_files', { files: ['links/secret.py'] }, /files\[0\] "links\/secret.py" goes through a symbolic link to .*secret\.py, outside the repository root/],
      ['context_for_files', { files: ['links/up/secret.py'] }, /goes through a symbolic link to .*, outside the repository root/],
      ['context_for_pr', { files: [outside] }, /outside the repository root/],
    ];
    for (const [tool, args, message] of attempts) {
      const result = await call(server.client, tool, args as Record<string, unknown>);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(result)).toMatch(message);
      expect(textOf(result)).toContain('(INVALID_ARGUMENT)');
      expect(textOf(result)).not.toContain('hunter2');
    }
    // An absolute path inside the repository is fine.
    const inside = await call(server.client, 'context_for_files', { files: [path.join(repo.root, 'notely', 'search.py')] });
    expect(inside.isError).toBeFalsy();
  });

  it('writes nothing but protocol messages to stdout (diagnostics go to stderr)', () => {
    // Every exchange above parsed as JSON-RPC; the log lines went to stderr.
    expect(server.stderr()).toContain('knowing: MCP server for');
    expect(server.stderr()).toContain('initial index');
  });
});
