import { languagePlugin } from './define.js';

/** Ruby idioms: `initialize`, metaprogramming hooks, conversions, mixins, blocks, RSpec. */
export const RUBY_PLUGIN = languagePlugin('ruby', 'ruby', [
  {
    concept: 'RB_CONSTRUCTOR',
    phrases: ['constructor', 'initializer', 'initialize method', 'object creation'],
    targets: ['initialize', 'allocate'],
    targetType: 'callable',
  },
  {
    concept: 'RB_METAPROGRAMMING',
    phrases: ['method missing', 'dynamic method', 'define method', 'respond to', 'metaprogramming', 'class eval'],
    targets: ['method_missing', 'respond_to_missing?', 'define_method', 'instance_variable_get', 'class_eval', 'instance_eval', 'public_send'],
  },
  {
    concept: 'RB_CONVERSIONS',
    phrases: ['to string', 'string representation', 'inspect output', 'to hash', 'to array'],
    targets: ['to_s', 'to_str', 'inspect', 'to_h', 'to_a', 'to_hash', 'as_json'],
  },
  {
    concept: 'RB_MIXINS',
    phrases: ['mixin', 'module include', 'concern', 'extend module', 'included hook'],
    targets: ['included', 'extended', 'prepended', 'Concern', 'ClassMethods', 'append_features'],
  },
  {
    concept: 'RB_ENUMERABLE',
    phrases: ['enumerable', 'iterator methods', 'collection methods', 'lazy enumerator'],
    targets: ['Enumerable', 'each', 'each_with_object', 'inject', 'reduce', 'Enumerator'],
  },
  {
    concept: 'RB_BLOCKS',
    phrases: ['block', 'yield', 'proc', 'lambda', 'block given'],
    targets: ['block_given?', 'to_proc', 'Proc', 'lambda', 'instance_exec'],
  },
  {
    concept: 'RB_COMPARISON',
    phrases: ['comparable', 'spaceship operator', 'equality', 'hash equality'],
    targets: ['Comparable', 'eql?', 'equal?'],
  },
  {
    concept: 'RB_ERRORS',
    phrases: ['rescue', 'raise error', 'custom error', 'standard error', 'retry block'],
    targets: ['StandardError', 'RuntimeError', 'ArgumentError', 'rescue', 'raise'],
  },
  {
    concept: 'RB_CLI',
    phrases: ['rake task', 'thor command', 'gem executable', 'option parser', 'command line'],
    targets: ['Rake', 'Thor', 'OptionParser', 'Application', 'desc'],
  },
  {
    concept: 'RB_TESTING',
    phrases: ['rspec', 'minitest', 'shared examples', 'let block', 'spec helper'],
    targets: ['RSpec', 'Minitest', 'shared_examples', 'it_behaves_like', 'assert_equal', 'describe'],
  },
]);
