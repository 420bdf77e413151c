/**
 * In-process tests of what the binary cannot easily show: a terminal on stdout, the progress
 * renderer's timing, and the config file checks.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILTIN_LANGUAGES } from '@knowing/indexer';
import { BUILTIN_LANGUAGE_IDS } from '../src/commands.js';
import { run } from '../src/run.js';
import { validateConfig } from '../src/validate-config.js';
import { createProgress } from '../src/progress.js';
import { formatInt } from '../src/text.js';
import { emptyDir, removeScratch } from './helpers.js';

afterAll(removeScratch);
import type { VizNode } from '../src/viz-page.js';

function capture(isTTY = false): { stream: { write(chunk: string | Uint8Array): boolean; isTTY: boolean; columns: number }; text(): string } {
  const chunks: string[] = [];
  return {
    stream: {
      isTTY,
      columns: 80,
      write(chunk) {
        chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('latin1'));
        return true;
      },
    },
    text: () => chunks.join(''),
  };
}

describe('run()', () => {
  it('refuses to write gcb to a terminal, before looking for an index', async () => {
    const stdout = capture(true);
    const stderr = capture();
    const code = await run(['context', '--task', 'refund a payment', '--format', 'gcb'], { stdout: stdout.stream, stderr: stderr.stream, cwd: emptyDir() });
    expect(code).toBe(2);
    expect(stdout.text()).toBe('');
    expect(stderr.text()).toContain('knowing: gcb is a binary format and stdout is a terminal');
    expect(stderr.text()).toContain('hint: redirect it to a file');
  });

  it('reports an invalid config file by name and field, with exit 2', async () => {
    const dir = emptyDir();
    writeFileSync(join(dir, 'knowing.config.json'), JSON.stringify({ defaults: { budget: 8000, formt: 'gcf' } }));
    const stdout = capture();
    const stderr = capture();
    const code = await run(['context', '--task', 'x', '--repo', dir], { stdout: stdout.stream, stderr: stderr.stream, cwd: dir });
    expect(code).toBe(2);
    expect(stderr.text()).toContain(`knowing: ${join(dir, 'knowing.config.json')}: unknown field "defaults.formt"`);
    expect(stderr.text()).toContain('hint: known fields here: budget, format, languages, workers');
  });

  it('a config whose default format is unknown is a usage error naming the setting', async () => {
    const dir = emptyDir();
    writeFileSync(join(dir, 'knowing.config.json'), JSON.stringify({ defaults: { format: 'yaml' } }));
    const stderr = capture();
    const code = await run(['context', '--task', 'x'], { stdout: capture().stream, stderr: stderr.stream, cwd: dir });
    expect(code).toBe(2);
    expect(stderr.text()).toContain('unknown format "yaml" for defaults.format in the config');
  });
});

describe('the command definitions', () => {
  it('list the indexer\'s built-in languages in the help of index --languages', () => {
    expect(BUILTIN_LANGUAGE_IDS).toEqual([...new Set(BUILTIN_LANGUAGES.map((m) => m.id))].sort());
  });
});

describe('formatInt', () => {
  it('groups thousands with commas, as en-US does', () => {
    expect([0, 999, 1000, 50_000, 1_234_567.6, -1234].map(formatInt)).toEqual(['0', '999', '1,000', '50,000', '1,234,568', '-1,234']);
  });
});

describe('validateConfig', () => {
  it('accepts a full config', () => {
    const config = {
      plugins: ['knowing-vocab-django'],
      ranker: './ranker.mjs',
      defaults: { budget: 8000, format: 'gcf', languages: ['python'], workers: 0 },
      engine: { walk: { alpha: 0.3, edgeWeights: { calls: 2 } }, ranking: { anything: 1 }, cache: false },
    };
    expect(validateConfig(config, 'k.json')).toBe(config);
  });

  it.each([
    [[], 'must hold an object'],
    [{ plugin: [] }, 'unknown field "plugin"'],
    [{ plugins: 'x' }, '"plugins" must be an array'],
    [{ plugins: [''] }, '"plugins[0]" must be a package name'],
    [{ ranker: 3 }, '"ranker" must be a module path'],
    [{ defaults: { budget: -5 } }, '"defaults.budget" must be a positive whole number'],
    [{ defaults: { languages: 'python' } }, '"defaults.languages" must be an array'],
    [{ engine: { walks: {} } }, 'unknown field "engine.walks"'],
    [{ engine: { walk: { alpah: 0.2 } } }, 'unknown field "engine.walk.alpah"'],
    [{ engine: { walk: { alpha: '0.2' } } }, '"engine.walk.alpha" must be a number'],
    [{ engine: { cache: 'yes' } }, '"engine.cache" must be a boolean'],
  ])('rejects %j', (raw, message) => {
    expect(() => validateConfig(raw, 'k.json')).toThrow(message);
  });
});

describe('index progress', () => {
  it('draws one bar redrawn in place on a terminal and clears it at the end', () => {
    const out = capture(true);
    let t = 0;
    const progress = createProgress(out.stream, { enabled: true, now: () => t, redrawIntervalMs: 50 });
    progress.onProgress({ phase: 'parse', done: 0, total: 10 });
    t = 10;
    progress.onProgress({ phase: 'parse', done: 1, total: 10 }); // throttled
    t = 100;
    progress.onProgress({ phase: 'parse', done: 5, total: 10 });
    progress.onProgress({ phase: 'parse', done: 10, total: 10 }); // the last of a phase always shows
    progress.finish();
    const text = out.text();
    expect(text).toContain('\rknowing: [' + '#'.repeat(12) + '.'.repeat(12) + '] 5/10 files');
    expect(text).toContain('10/10 files');
    expect(text).not.toContain('1/10 files');
    expect(text.endsWith('\r')).toBe(true);
    expect(text).not.toContain('\n');
  });

  it('prints a plain line every few seconds elsewhere, and nothing for quick runs', () => {
    const out = capture(false);
    let t = 0;
    const progress = createProgress(out.stream, { enabled: true, now: () => t, lineIntervalMs: 3000 });
    progress.onProgress({ phase: 'parse', done: 100, total: 1000 });
    expect(out.text()).toBe('');
    t = 3500;
    progress.onProgress({ phase: 'parse', done: 400, total: 1000 });
    t = 4000;
    progress.onProgress({ phase: 'parse', done: 500, total: 1000 });
    expect(out.text()).toBe('knowing: parsed 400/1000 files (4 s)\n');
  });

  it('is silent when disabled (--quiet, --json)', () => {
    const out = capture(true);
    const progress = createProgress(out.stream, { enabled: false });
    progress.onProgress({ phase: 'parse', done: 1, total: 1 });
    progress.finish();
    expect(out.text()).toBe('');
  });
});

/** Just enough DOM for the page script: elements with attributes, children, classes, events. */
class FakeElement {
  readonly children: FakeElement[] = [];
  readonly attributes = new Map<string, string>();
  readonly listeners = new Map<string, ((event: unknown) => void)[]>();
  readonly style: Record<string, string> = {};
  readonly classes = new Set<string>();
  parentNode: FakeElement | null = null;
  private text = '';
  get textContent(): string {
    return this.text;
  }
  /** As in the DOM: setting the text replaces the children. */
  set textContent(value: string) {
    this.children.length = 0;
    this.text = value;
  }
  title = '';
  clientWidth = 800;
  constructor(readonly tagName: string, readonly namespaceURI: string | null = null) {}
  set className(value: string) {
    this.classes.clear();
    for (const c of value.split(/\s+/)) if (c) this.classes.add(c);
  }
  readonly classList = {
    add: (c: string) => this.classes.add(c),
    remove: (c: string) => this.classes.delete(c),
    toggle: (c: string, on: boolean) => (on ? this.classes.add(c) : this.classes.delete(c)),
  };
  setAttribute(name: string, value: unknown): void {
    if (name === 'class') this.className = String(value);
    else this.attributes.set(name, String(value));
  }
  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }
  appendChild(child: FakeElement): FakeElement {
    child.parentNode = this;
    this.children.push(child);
    return child;
  }
  addEventListener(type: string, listener: (event: unknown) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  dispatch(type: string, event: unknown = { stopPropagation() {}, clientX: 10, clientY: 10, preventDefault() {} }): void {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
  getBoundingClientRect() {
    return { left: 0, top: 0, width: 800, height: 600 };
  }
  all(): FakeElement[] {
    return [this, ...this.children.flatMap((c) => c.all())];
  }
}

describe('the viz page script', () => {
  it('lays out and draws every symbol and edge, and shows details on click', async () => {
    const { renderVizPage } = await import('../src/viz-page.js');
    const node = (id: string, name: string, distance: number, score: number): VizNode => ({
      id, name, qualifiedName: `shop/a.py.${name}`, kind: 'function', file: 'shop/a.py', startLine: 1, endLine: 2,
      signature: `def ${name}()`, doc: '<b>not html</b>', rank: 1, score, distance, rwr: score,
      components: { relevance: score, blast_radius: 0.1 }, provenance: 'ast_resolved',
      seed: distance === 0 ? { weight: 1, origin: 'fused', channels: ['tiered'] } : null,
      channels: distance === 0 ? { tiered: 'exact' } : {}, walk: { score, hops: distance }, hits: null, forced: false, why: 'because',
    });
    const html = renderVizPage({
      task: 'x', generatedAt: 'now', repository: '/r', tokensUsed: 10, tokenBudget: 100, ranked: 3, keywords: [], matchedClasses: [],
      nodes: [node('a', 'alpha', 0, 0.9), node('b', 'beta', 1, 0.5), node('c', 'gamma', 2, 0.2)],
      edges: [{ source: 'b', target: 'a', type: 'calls' }, { source: 'c', target: 'b', type: 'calls' }, { source: 'a', target: 'zzz', type: 'calls' }],
    });
    const data = /<script type="application\/json" id="knowing-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const svgNs = 'urn:test-svg';
    const byId: Record<string, FakeElement> = {
      'knowing-data': new FakeElement('script'),
      graph: new FakeElement('svg', svgNs),
      tip: new FakeElement('div'),
      details: new FakeElement('div'),
      list: new FakeElement('table'),
    };
    byId['knowing-data']!.textContent = data;
    new FakeElement('div').appendChild(byId['graph']!);
    const document = {
      getElementById: (id: string) => byId[id] ?? null,
      createElementNS: (ns: string, tag: string) => new FakeElement(tag, ns),
      createElement: (tag: string) => new FakeElement(tag),
      querySelectorAll: () => byId['list']!.children,
    };
    const window = { addEventListener() {} };
    new Function('document', 'window', script)(document, window);

    const drawn = byId['graph']!.all();
    expect(drawn.filter((e) => e.tagName === 'circle')).toHaveLength(3);
    expect(drawn.filter((e) => e.tagName === 'line')).toHaveLength(2); // the edge to an unknown node is dropped
    expect(byId['graph']!.getAttribute('viewBox')).toMatch(/^-?[\d.]+ -?[\d.]+ [\d.]+ [\d.]+$/);
    // The best-ranked symbol is selected at first: its details are shown as text, not markup.
    const texts = byId['details']!.all().map((e) => e.textContent);
    expect(texts).toContain('shop/a.py.alpha');
    expect(texts).toContain('<b>not html</b>');
    expect(texts).toContain('because');
    const beta = drawn.filter((e) => e.tagName === 'g' && e.classes.has('node'))[1]!;
    beta.dispatch('click');
    const after = byId['details']!.all().map((e) => e.textContent);
    expect(after).toContain('shop/a.py.beta');
    expect(after).not.toContain('shop/a.py.alpha');
    beta.dispatch('mouseenter');
    expect(byId['tip']!.style['display']).toBe('block');
  });
});

describe('repository paths', () => {
  it('treat a file whose name starts with two dots as inside the repository; only a `..` segment leaves it', async () => {
    const { toRepoPath, displayPath } = await import('../src/repo.js');
    const root = emptyDir();
    writeFileSync(join(root, '..dotdot.py'), 'x = 1\n');
    expect(toRepoPath('..dotdot.py', root, root)).toBe('..dotdot.py');
    expect(toRepoPath(join(root, '..dotdot.py'), root, root)).toBe('..dotdot.py');
    expect(displayPath(join(root, '..dotdot.py'), root)).toBe('..dotdot.py');
    expect(displayPath(join(root, '..', 'elsewhere'), root)).toBe(join(root, '..', 'elsewhere'));
  });
});
