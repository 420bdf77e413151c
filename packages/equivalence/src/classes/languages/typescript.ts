import { concept } from '../concept.js';
import { languagePlugin } from './define.js';

/** TypeScript idioms (also `.tsx` repositories): modules, promises, stores, decorators, test runners. */
export const TYPESCRIPT_PLUGIN = languagePlugin('typescript', 'typescript', [
  concept('TS_ENTRY_POINT', ['entry point', 'bootstrap', 'server entry', 'create app', 'start server'], [
    'bootstrap', 'createApp', 'createServer', 'startServer', 'buildApp', 'listen',
  ]),
  concept('TS_ERRORS', ['custom error', 'error class', 'throw error', 'error subclass', 'http error'], [
    'AppError', 'BaseError', 'HttpError', 'HttpException', 'captureStackTrace', 'isError',
  ]),
  concept('TS_ASYNC', ['promise', 'async await', 'concurrent promises', 'parallel promises', 'abort controller'], [
    'Promise', 'allSettled', 'PromiseLike', 'Deferred', 'AbortController', 'AbortSignal', 'pLimit',
  ]),
  concept('TS_ROUTING', ['router', 'route', 'navigation', 'route params', 'route guard'], [
    'Router', 'useRouter', 'createRouter', 'RouterModule', 'navigate', 'useParams', 'Routes',
  ]),
  concept('TS_STATE', ['state management', 'global state', 'store', 'reducer', 'selector', 'observable state'], [
    'createStore', 'useStore', 'configureStore', 'createSlice', 'reducer', 'useSelector', 'Store', 'BehaviorSubject',
  ]),
  concept('TS_EVENTS', ['event emitter', 'event listener', 'emit event', 'custom event', 'event target'], [
    'EventEmitter', 'addEventListener', 'removeEventListener', 'dispatchEvent', 'EventTarget', 'once',
  ]),
  concept('TS_DECORATORS', ['decorator', 'class decorator', 'reflect metadata', 'property decorator'], [
    'Reflect', 'defineMetadata', 'getMetadata', 'decorate', '__decorate', 'SetMetadata',
  ]),
  concept('TS_SCHEMA_VALIDATION', ['schema validation', 'zod schema', 'runtime type check', 'validate payload', 'type guard'], [
    'safeParse', 'ZodSchema', 'ZodType', 'validateSchema', 'Schema', 'isValid', 'assertType',
  ]),
  concept('TS_CONFIG', ['tsconfig', 'compiler options', 'define config', 'config file', 'resolve config'], [
    'defineConfig', 'loadConfig', 'resolveConfig', 'CompilerOptions', 'parseJsonConfigFileContent', 'UserConfig',
  ]),
  concept('TS_TESTING', ['jest', 'vitest', 'unit test', 'spec file', 'mock module', 'test runner'], [
    'describe', 'beforeEach', 'afterEach', 'beforeAll', 'expect', 'spyOn', 'mockImplementation',
  ]),
]);
