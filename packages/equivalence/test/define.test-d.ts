import { describe, expectTypeOf, it } from 'vitest';
import { createClassRegistry, defineEquivalenceClasses } from '@knowing/equivalence';
import type { EquivalencePlugin, EquivalencePluginInput } from '@knowing/equivalence';

describe('defineEquivalenceClasses', () => {
  it('accepts a vocabulary with only the required fields and returns a validated plugin', () => {
    const plugin = defineEquivalenceClasses({
      framework: 'celery',
      classes: [{ concept: 'CELERY_TASK', phrases: ['background task'], targets: ['shared_task'] }],
    });
    expectTypeOf(plugin).toEqualTypeOf<EquivalencePlugin>();
    expectTypeOf(plugin.source).toEqualTypeOf<'universal' | 'language' | 'framework' | 'plugin'>();
    expectTypeOf(defineEquivalenceClasses).parameter(0).toEqualTypeOf<EquivalencePluginInput>();

    defineEquivalenceClasses({
      framework: 'django',
      name: 'django-orm',
      language: ['python'],
      source: 'framework',
      classes: [
        { concept: 'ORM_QUERY', phrases: ['query'], targets: ['QuerySet.filter'], targetType: 'any', weight: 0.8, language: 'python' },
      ] as const,
    });
    // A registry takes both the validated plugin and the raw input.
    expectTypeOf(createClassRegistry().register).parameter(0).toEqualTypeOf<EquivalencePlugin | EquivalencePluginInput>();
  });

  it('rejects vocabularies missing required fields or using unknown values', () => {
    // @ts-expect-error framework is required
    defineEquivalenceClasses({ classes: [] });
    // @ts-expect-error classes is required
    defineEquivalenceClasses({ framework: 'flask' });
    // @ts-expect-error a class needs targets
    defineEquivalenceClasses({ framework: 'flask', classes: [{ concept: 'ROUTE', phrases: ['route'] }] });
    // @ts-expect-error phrases are strings
    defineEquivalenceClasses({ framework: 'flask', classes: [{ concept: 'ROUTE', phrases: [1], targets: ['route'] }] });
    // @ts-expect-error language is a known LanguageId
    defineEquivalenceClasses({ framework: 'rails', language: 'cobol', classes: [] });
    // @ts-expect-error source is one of universal | language | framework | plugin
    defineEquivalenceClasses({ framework: 'rails', source: 'community', classes: [] });
    const plugin = defineEquivalenceClasses({ framework: 'flask', classes: [] });
    // @ts-expect-error the returned plugin is frozen (readonly)
    plugin.name = 'renamed';
  });
});
