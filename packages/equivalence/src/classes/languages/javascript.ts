import { languagePlugin } from './define.js';

/** JavaScript idioms: CommonJS/ESM modules, callbacks, the DOM, Express, bundlers. */
export const JAVASCRIPT_PLUGIN = languagePlugin('javascript', 'javascript', [
  {
    concept: 'JS_MODULES',
    phrases: ['commonjs', 'es module', 'module exports', 'dynamic import', 'require call'],
    targets: ['require', 'createRequire', 'importModule', 'exports', 'loadModule'],
  },
  {
    concept: 'JS_CALLBACKS',
    phrases: ['callback', 'node callback', 'promisify', 'next tick', 'error first callback'],
    targets: ['promisify', 'callbackify', 'nextTick', 'setImmediate', 'callback', 'done'],
  },
  {
    concept: 'JS_EVENTS',
    phrases: ['event emitter', 'event listener', 'emit event', 'listen for event'],
    targets: ['EventEmitter', 'addListener', 'removeListener', 'addEventListener', 'once', 'listeners'],
  },
  {
    concept: 'JS_PROTOTYPES',
    phrases: ['prototype', 'prototype chain', 'mixin', 'inheritance', 'constructor function'],
    targets: ['prototype', 'setPrototypeOf', 'inherits', 'mixin', 'extend', 'assign'],
  },
  {
    concept: 'JS_EXPRESS',
    phrases: ['express app', 'express router', 'express middleware', 'request handler', 'error middleware'],
    targets: ['express', 'Router', 'urlencoded', 'middleware', 'errorHandler', 'handleRequest'],
  },
  {
    concept: 'JS_DOM',
    phrases: ['dom manipulation', 'query selector', 'dom element', 'create element', 'dom event'],
    targets: ['querySelector', 'querySelectorAll', 'getElementById', 'createElement', 'appendChild', 'addEventListener'],
  },
  {
    concept: 'JS_BUILD',
    phrases: ['bundler', 'webpack', 'rollup', 'babel plugin', 'build config', 'loader'],
    targets: ['webpack', 'rollup', 'defineConfig', 'Compiler', 'Compilation', 'transform', 'plugins'],
  },
  {
    concept: 'JS_TESTING',
    phrases: ['mocha', 'jest', 'test runner', 'unit test', 'assertion library'],
    targets: ['describe', 'beforeEach', 'afterEach', 'expect', 'assert', 'should'],
  },
]);
