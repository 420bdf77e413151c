import { ErrorCode, KnowingError } from '@knowing/graph';
import { SOURCE } from './options.js';
import { importTarget } from './resolve-package.js';
import { validatePlugin } from './validate.js';
import type {
  ClassRegistry,
  EquivalenceClass,
  EquivalencePlugin,
  EquivalencePluginInput,
  LoadPackageOptions,
} from './types.js';

function pluginError(message: string, hint?: string, cause?: unknown): KnowingError {
  return new KnowingError(ErrorCode.PluginInvalid, message, {
    source: SOURCE,
    ...(hint !== undefined ? { hint } : {}),
    ...(cause !== undefined ? { cause } : {}),
  });
}

/**
 * A registry of vocabulary plugins. Registering validates the plugin, and rejects a name
 * already registered or a concept id another plugin already uses (both plugins are named);
 * `classes()` flattens every registered plugin in registration order. `initial` plugins are
 * registered first — pass `BUILTIN_PLUGINS` for the shipped vocabulary.
 *
 * @example
 * ```ts
 * import { BUILTIN_PLUGINS, createClassRegistry } from '@knowing/equivalence';
 *
 * const registry = createClassRegistry(BUILTIN_PLUGINS);
 * registry.unregister('react');
 * await registry.loadFromPackage('knowing-vocab-celery', { from: process.cwd() });
 * const classes = registry.classes();
 * ```
 */
export function createClassRegistry(
  initial: readonly (EquivalencePlugin | EquivalencePluginInput)[] = [],
): ClassRegistry {
  const plugins = new Map<string, EquivalencePlugin>();
  const owners = new Map<string, string>(); // concept id → plugin name
  let flat: readonly EquivalenceClass[] | undefined;

  function add(raw: unknown, label?: string): EquivalencePlugin {
    const plugin = validatePlugin(raw, label);
    const title = label ?? `plugin "${plugin.name}"`;
    if (plugins.has(plugin.name)) {
      throw pluginError(`${title}: a plugin named "${plugin.name}" is already registered`, 'unregister it first or rename one of them');
    }
    for (const cls of plugin.classes) {
      const owner = owners.get(cls.concept);
      if (owner !== undefined) {
        throw pluginError(`${title}: concept ${cls.concept} is already defined by plugin "${owner}"`, 'rename the concept id');
      }
    }
    plugins.set(plugin.name, plugin);
    for (const cls of plugin.classes) owners.set(cls.concept, plugin.name);
    flat = undefined;
    return plugin;
  }

  const registry: ClassRegistry = {
    register(plugin) {
      return add(plugin);
    },
    unregister(name) {
      const plugin = plugins.get(name);
      if (!plugin) return false;
      plugins.delete(name);
      for (const cls of plugin.classes) owners.delete(cls.concept);
      flat = undefined;
      return true;
    },
    list() {
      return Object.freeze([...plugins.values()]);
    },
    classes() {
      flat ??= Object.freeze([...plugins.values()].flatMap((p) => p.classes));
      return flat;
    },
    async loadFromPackage(specifier: string, options: LoadPackageOptions = {}) {
      let module: Record<string, unknown>;
      try {
        module = (await import(importTarget(specifier, options.from))) as Record<string, unknown>;
      } catch (cause) {
        throw new KnowingError(ErrorCode.NotFound, `could not import vocabulary package "${specifier}"`, {
          source: SOURCE,
          hint: 'check that it is installed (resolve it from your project with the `from` option) and that it loads',
          cause,
        });
      }
      const exported = module['default'] ?? module['classes'];
      if (exported === undefined || exported === null) {
        throw pluginError(
          `package "${specifier}" has neither a default export nor a \`classes\` export`,
          'export default defineEquivalenceClasses({ ... })',
        );
      }
      const list = Array.isArray(exported) ? exported : [exported];
      if (list.length === 0) throw pluginError(`package "${specifier}" exports an empty plugin list`);
      // Validate everything before registering anything, so a bad package leaves the registry unchanged.
      const validated = list.map((raw, i) =>
        validatePlugin(raw, `plugin ${list.length > 1 ? `#${i + 1} ` : ''}from package "${specifier}"`),
      );
      const added: EquivalencePlugin[] = [];
      try {
        for (const plugin of validated) added.push(add(plugin, `plugin "${plugin.name}" from package "${specifier}"`));
      } catch (error) {
        for (const plugin of added) registry.unregister(plugin.name);
        throw error;
      }
      return Object.freeze(added);
    },
  };

  for (const plugin of initial) add(plugin);
  return registry;
}
