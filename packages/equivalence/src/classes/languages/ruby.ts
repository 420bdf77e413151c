import { concept } from '../concept.js';
import { languagePlugin } from './define.js';

/** Ruby idioms: `initialize`, metaprogramming hooks, conversions, mixins, blocks, RSpec. */
export const RUBY_PLUGIN = languagePlugin('ruby', 'ruby', [
  concept('RB_CONSTRUCTOR', ['constructor', 'initializer', 'initialize method', 'object creation'], [
    'initialize', 'allocate',
  ], 'callable'),
  concept('RB_METAPROGRAMMING', ['method missing', 'dynamic method', 'define method', 'respond to', 'metaprogramming', 'class eval'], [
    'method_missing', 'respond_to_missing?', 'define_method', 'instance_variable_get', 'class_eval', 'instance_eval', 'public_send',
  ]),
  concept('RB_CONVERSIONS', ['to string', 'string representation', 'inspect output', 'to hash', 'to array'], [
    'to_s', 'to_str', 'inspect', 'to_h', 'to_a', 'to_hash', 'as_json',
  ]),
  concept('RB_MIXINS', ['mixin', 'module include', 'concern', 'extend module', 'included hook'], [
    'included', 'extended', 'prepended', 'Concern', 'ClassMethods', 'append_features',
  ]),
  concept('RB_ENUMERABLE', ['enumerable', 'iterator methods', 'collection methods', 'lazy enumerator'], [
    'Enumerable', 'each', 'each_with_object', 'inject', 'reduce', 'Enumerator',
  ]),
  concept('RB_BLOCKS', ['block', 'yield', 'proc', 'lambda', 'block given'], [
    'block_given?', 'to_proc', 'Proc', 'lambda', 'instance_exec',
  ]),
  concept('RB_COMPARISON', ['comparable', 'spaceship operator', 'equality', 'hash equality'], [
    'Comparable', 'eql?', 'equal?',
  ]),
  concept('RB_ERRORS', ['rescue', 'raise error', 'custom error', 'standard error', 'retry block'], [
    'StandardError', 'RuntimeError', 'ArgumentError', 'rescue', 'raise',
  ]),
  concept('RB_CLI', ['rake task', 'thor command', 'gem executable', 'option parser', 'command line'], [
    'Rake', 'Thor', 'OptionParser', 'Application', 'desc',
  ]),
  concept('RB_TESTING', ['rspec', 'minitest', 'shared examples', 'let block', 'spec helper'], [
    'RSpec', 'Minitest', 'shared_examples', 'it_behaves_like', 'assert_equal', 'describe',
  ]),
]);
