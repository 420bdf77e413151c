import { describe, expect, it } from 'vitest';
import { isKnowingError } from '@knowing/graph';
import { BUILTIN_LANGUAGES, createLanguageRegistry, normaliseRemoteUrl } from '../src/index.js';

describe('language registry', () => {
  it('maps extensions to modules, case-insensitively', () => {
    const registry = createLanguageRegistry();
    expect(registry.forPath('src/flask/app.py')?.id).toBe('python');
    expect(registry.forPath('typings/x.PYI')?.id).toBe('python');
    expect(registry.forPath('README')).toBeUndefined();
    expect(registry.forPath('.py')).toBeUndefined();
    expect(registry.modules).toEqual(BUILTIN_LANGUAGES);
  });

  it('restricts to the requested languages, accepting aliases', () => {
    expect(createLanguageRegistry({ languages: ['py'] }).modules.map((m) => m.id)).toEqual(['python']);
    expect(createLanguageRegistry({ languages: ['py'] }).forPath('a.go')).toBeUndefined();
    expect(createLanguageRegistry({ languages: [' Python '] }).byId('python')?.id).toBe('python');
  });

  it('throws UNKNOWN_LANGUAGE for an unknown name', () => {
    try {
      createLanguageRegistry({ languages: ['python', 'fortran'] });
      expect.unreachable();
    } catch (error) {
      expect(isKnowingError(error, 'UNKNOWN_LANGUAGE')).toBe(true);
      expect((error as Error).message).toMatch(/^\[knowing:indexer\] unknown language "fortran" — known languages: .*\bpython\b/);
    }
  });
});

describe('normaliseRemoteUrl', () => {
  it('gives SSH, HTTPS and scp-style remotes of one repository the same id', () => {
    expect(normaliseRemoteUrl('git@github.com:pallets/flask.git')).toBe('github.com/pallets/flask');
    expect(normaliseRemoteUrl('https://GitHub.com/pallets/flask.git/')).toBe('github.com/pallets/flask');
    expect(normaliseRemoteUrl('ssh://git@github.com:22/pallets/flask.git')).toBe('github.com/pallets/flask');
    expect(normaliseRemoteUrl('https://user:token@gitlab.example.com/group/sub/repo')).toBe('gitlab.example.com/group/sub/repo');
    expect(normaliseRemoteUrl('/srv/git/repo.git')).toBe('/srv/git/repo');
  });
});
