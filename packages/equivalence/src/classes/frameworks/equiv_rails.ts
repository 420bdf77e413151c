import { builtinPlugin } from '../../validate.js';
import { concept } from '../concept.js';

/** Ruby on Rails, in the vocabulary of the Rails guides: Active Record, Action Pack, Active Job, Action Mailer. */
export default builtinPlugin({
  framework: 'rails',
  language: 'ruby',
  source: 'framework',
  classes: [
    concept('RAILS_ACTIVE_RECORD', ['active record', 'model association', 'has many', 'belongs to', 'named scope', 'active record relation'], [
      'ActiveRecord', 'Relation', 'has_many', 'belongs_to', 'has_one', 'Associations', 'scope',
    ]),
    concept('RAILS_CALLBACKS', ['before save', 'after create', 'before action', 'model callback', 'after commit', 'controller callback'], [
      'before_save', 'after_create', 'before_action', 'after_commit', 'before_validation', 'around_action', 'set_callback', 'run_callbacks',
    ]),
    concept('RAILS_VALIDATIONS', ['model validation', 'validates presence', 'custom validator', 'validation errors', 'uniqueness validation'], [
      'validates', 'validates_presence_of', 'EachValidator', 'UniquenessValidator', 'valid?', 'Errors',
    ]),
    concept('RAILS_CONTROLLERS', ['rails controller', 'action controller', 'strong parameters', 'permit params', 'respond to format', 'redirect to'], [
      'ActionController', 'ApplicationController', 'permit', 'respond_to', 'redirect_to', 'Parameters',
    ]),
    concept('RAILS_ROUTING', ['rails routes', 'resources route', 'route set', 'nested resources', 'named route', 'routing mapper'], [
      'RouteSet', 'resources', 'namespace', 'Mapper', 'url_for', 'draw',
    ]),
    concept('RAILS_MIGRATIONS', ['rails migration', 'create table', 'add column', 'schema migration', 'change table', 'add index'], [
      'Migration', 'create_table', 'add_column', 'change_table', 'remove_column', 'add_index', 'SchemaMigration',
    ]),
    concept('RAILS_ACTIVE_JOB', ['active job', 'background job', 'perform later', 'job queue adapter', 'enqueue job'], [
      'ActiveJob', 'ApplicationJob', 'perform_later', 'perform_now', 'QueueAdapter', 'enqueue_at',
    ]),
    concept('RAILS_ACTION_MAILER', ['action mailer', 'mailer', 'deliver later', 'mailer view', 'mail delivery'], [
      'ActionMailer', 'ApplicationMailer', 'deliver_later', 'deliver_now', 'MessageDelivery', 'mail',
    ]),
    concept('RAILS_VIEWS', ['view helper', 'partial template', 'layout template', 'erb template', 'form helper', 'render partial'], [
      'ActionView', 'form_with', 'form_for', 'content_tag', 'link_to', 'PartialRenderer', 'TemplateRenderer',
    ]),
    concept('RAILS_CONCERNS', ['active support concern', 'concern module', 'included block', 'class methods block'], [
      'Concern', 'included', 'class_methods', 'ActiveSupport',
    ]),
    concept('RAILS_CACHING', ['rails cache', 'fragment caching', 'cache store', 'russian doll caching', 'cache key'], [
      'cache_key', 'MemoryStore', 'RedisCacheStore', 'FileStore', 'cache_key_with_version', 'ActiveSupport.Cache',
    ]),
    concept('RAILS_ACTIVE_STORAGE', ['active storage', 'attached file', 'has one attached', 'direct upload', 'storage service'], [
      'ActiveStorage', 'has_one_attached', 'has_many_attached', 'Blob', 'Attachment', 'Attached',
    ]),
    concept('RAILS_ACTION_CABLE', ['action cable', 'cable channel', 'broadcast to channel', 'websocket channel', 'stream from'], [
      'ActionCable', 'Channel', 'broadcast', 'stream_from', 'subscribed',
    ]),
    concept('RAILS_RAILTIES', ['railtie', 'rails engine', 'initializer block', 'rails application config'], [
      'Railtie', 'Engine', 'initializer', 'Application', 'Configuration',
    ]),
    concept('RAILS_INSTRUMENTATION', ['instrumentation', 'notifications subscribe', 'instrument event', 'active support notifications'], [
      'Notifications', 'instrument', 'Instrumenter', 'Subscriber', 'LogSubscriber',
    ]),
  ],
});
