import { languagePlugin } from './define.js';

/** TypeScript idioms (also `.tsx` repositories): modules, promises, stores, decorators, test runners. */
export const TYPESCRIPT_PLUGIN = languagePlugin('typescript', 'typescript', [
  {
    concept: 'TS_ENTRY_POINT',
    phrases: ['entry point', 'bootstrap', 'server entry', 'create app', 'start server'],
    targets: ['bootstrap', 'createApp', 'createServer', 'startServer', 'buildApp', 'listen'],
  },
  {
    concept: 'TS_ERRORS',
    phrases: ['custom error', 'error class', 'throw error', 'error subclass', 'http error'],
    targets: ['AppError', 'BaseError', 'HttpError', 'HttpException', 'captureStackTrace', 'isError'],
  },
  {
    concept: 'TS_ASYNC',
    phrases: ['promise', 'async await', 'concurrent promises', 'parallel promises', 'abort controller'],
    targets: ['Promise', 'allSettled', 'PromiseLike', 'Deferred', 'AbortController', 'AbortSignal', 'pLimit'],
  },
  {
    concept: 'TS_ROUTING',
    phrases: ['router', 'route', 'navigation', 'route params', 'route guard'],
    targets: ['Router', 'useRouter', 'createRouter', 'RouterModule', 'navigate', 'useParams', 'Routes'],
  },
  {
    concept: 'TS_STATE',
    phrases: ['state management', 'global state', 'store', 'reducer', 'selector', 'observable state'],
    targets: ['createStore', 'useStore', 'configureStore', 'createSlice', 'reducer', 'useSelector', 'Store', 'BehaviorSubject'],
  },
  {
    concept: 'TS_EVENTS',
    phrases: ['event emitter', 'event listener', 'emit event', 'custom event', 'event target'],
    targets: ['EventEmitter', 'addEventListener', 'removeEventListener', 'dispatchEvent', 'EventTarget', 'once'],
  },
  {
    concept: 'TS_DECORATORS',
    phrases: ['decorator', 'class decorator', 'reflect metadata', 'property decorator'],
    targets: ['Reflect', 'defineMetadata', 'getMetadata', 'decorate', '__decorate', 'SetMetadata'],
  },
  {
    concept: 'TS_SCHEMA_VALIDATION',
    phrases: ['schema validation', 'zod schema', 'runtime type check', 'validate payload', 'type guard'],
    targets: ['safeParse', 'ZodSchema', 'ZodType', 'validateSchema', 'Schema', 'isValid', 'assertType'],
  },
  {
    concept: 'TS_CONFIG',
    phrases: ['tsconfig', 'compiler options', 'define config', 'config file', 'resolve config'],
    targets: ['defineConfig', 'loadConfig', 'resolveConfig', 'CompilerOptions', 'parseJsonConfigFileContent', 'UserConfig'],
  },
  {
    concept: 'TS_TESTING',
    phrases: ['jest', 'vitest', 'unit test', 'spec file', 'mock module', 'test runner'],
    targets: ['describe', 'beforeEach', 'afterEach', 'beforeAll', 'expect', 'spyOn', 'mockImplementation'],
  },
]);
