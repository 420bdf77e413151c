/**
 * The API report of the workspace (scripts/api-report.mjs): every publishable package's public
 * exports, regenerated from sources and compared with the snapshots committed in api/. It lives
 * here because every CI run tests this package; it reads all packages, not only this one.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_DIR, WORKSPACE_ROOT, apiCheckMessage, collectApi, diffApi, findPackages, renderReport, snapshotName } from '../../../scripts/api-report.mjs';
import type { ApiCollection } from '../../../scripts/api-report.mjs';

describe('API report', () => {
  let current: ApiCollection;

  beforeAll(() => {
    current = collectApi();
  }, 120_000);

  it('matches the committed snapshots in api/ (run `pnpm api:update` and add a changeset when it does not)', () => {
    const message = apiCheckMessage(diffApi(WORKSPACE_ROOT, current));
    expect(message ?? 'the snapshots are current').toBe('the snapshots are current');
  });

  it('covers every publishable package and every subpath export, reading sources without problems', () => {
    expect(current.problems).toEqual([]);
    const packages = findPackages();
    expect(current.reports.map((r) => r.package)).toEqual(packages.map((p) => p.name));
    for (const pkg of packages) {
      const report = current.reports.find((r) => r.package === pkg.name)!;
      expect(Object.keys(report.entryPoints)).toEqual(pkg.entries.map((e) => e.subpath));
      expect(report.exportCount).toBe(Object.values(report.entryPoints).reduce((sum, e) => sum + e.exportCount, 0));
    }
    expect(current.reports.find((r) => r.package === '@knowing/graph')?.entryPoints['./memory']?.exports['createMemoryStore']).toBe('function');
  });

  it('names the kind of every export', () => {
    const kinds = new Set(current.reports.flatMap((r) => Object.values(r.entryPoints).flatMap((e) => Object.values(e.exports))));
    expect([...kinds].filter((kind) => kind.includes('unknown'))).toEqual([]);
    const graph = current.reports.find((r) => r.package === '@knowing/graph')!.entryPoints['.']!.exports;
    expect([graph['nodeId'], graph['KnowingError'], graph['GraphStore'], graph['NodeKind'], graph['EDGE_TYPES'], graph['ErrorCode']]).toEqual([
      'function',
      'class',
      'interface',
      'type',
      'const',
      'const+type',
    ]);
  });

  describe('on a changed snapshot', () => {
    let scratch: string;

    beforeAll(() => {
      // Current snapshots to tamper with, compared against the real report.
      scratch = mkdtempSync(join(tmpdir(), 'knowing-api-'));
      mkdirSync(join(scratch, API_DIR));
      for (const report of current.reports) writeFileSync(join(scratch, API_DIR, snapshotName(report.package)), renderReport(report));
    });
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    it('names the added, removed and changed exports and asks for a changeset and pnpm api:update', () => {
      const graph = current.reports.find((r) => r.package === '@knowing/graph')!;
      const root = graph.entryPoints['.']!;
      const { nodeId: _dropped, ...rest } = root.exports;
      const tampered = {
        ...graph,
        entryPoints: { ...graph.entryPoints, '.': { exportCount: root.exportCount, exports: { ...rest, edgeKey: 'const', oldHelper: 'function' } } },
      };
      const file = join(scratch, API_DIR, snapshotName(graph.package));
      writeFileSync(file, renderReport(tampered));
      writeFileSync(join(scratch, API_DIR, 'gone.api.json'), '{}\n');
      const lines = diffApi(scratch, current);
      expect(lines).toEqual([
        '@knowing/graph (api/graph.api.json):',
        '  ~ . edgeKey: const → function',
        '  + . nodeId (function)',
        '  - . oldHelper (function)',
        'api/gone.api.json: no publishable package has this name any more; delete it',
      ]);
      const message = apiCheckMessage(lines)!;
      expect(message).toContain('pnpm changeset');
      expect(message).toContain('pnpm api:update');
      expect(readFileSync(file, 'utf8')).toContain('oldHelper');
      expect(diffApi(scratch, current).length).toBe(lines.length); // diffing never rewrites a snapshot
    });
  });
});
