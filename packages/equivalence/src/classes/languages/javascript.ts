import { concept } from '../concept.js';
import { languagePlugin } from './define.js';

/** JavaScript idioms: CommonJS/ESM modules, callbacks, the DOM, Express, bundlers. */
export const JAVASCRIPT_PLUGIN = languagePlugin('javascript', 'javascript', [
  concept('JS_MODULES', ['commonjs', 'es module', 'module exports', 'dynamic import', 'require call'], [
    'require', 'createRequire', 'importModule', 'exports', 'loadModule',
  ]),
  concept('JS_CALLBACKS', ['callback', 'node callback', 'promisify', 'next tick', 'error first callback'], [
    'promisify', 'callbackify', 'nextTick', 'setImmediate', 'callback', 'done',
  ]),
  concept('JS_EVENTS', ['event emitter', 'event listener', 'emit event', 'listen for event'], [
    'EventEmitter', 'addListener', 'removeListener', 'addEventListener', 'once', 'listeners',
  ]),
  concept('JS_PROTOTYPES', ['prototype', 'prototype chain', 'mixin', 'inheritance', 'constructor function'], [
    'prototype', 'setPrototypeOf', 'inherits', 'mixin', 'extend', 'assign',
  ]),
  concept('JS_EXPRESS', ['express app', 'express router', 'express middleware', 'request handler', 'error middleware'], [
    'express', 'Router', 'urlencoded', 'middleware', 'errorHandler', 'handleRequest',
  ]),
  concept('JS_DOM', ['dom manipulation', 'query selector', 'dom element', 'create element', 'dom event'], [
    'querySelector', 'querySelectorAll', 'getElementById', 'createElement', 'appendChild', 'addEventListener',
  ]),
  concept('JS_BUILD', ['bundler', 'webpack', 'rollup', 'babel plugin', 'build config', 'loader'], [
    'webpack', 'rollup', 'defineConfig', 'Compiler', 'Compilation', 'transform', 'plugins',
  ]),
  concept('JS_TESTING', ['mocha', 'jest', 'test runner', 'unit test', 'assertion library'], [
    'describe', 'beforeEach', 'afterEach', 'expect', 'assert', 'should',
  ]),
]);
