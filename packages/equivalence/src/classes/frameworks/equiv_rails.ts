import { defineEquivalenceClasses } from '../../define.js';

/** Ruby on Rails, in the vocabulary of the Rails guides: Active Record, Action Pack, Active Job, Action Mailer. */
export default defineEquivalenceClasses({
  framework: 'rails',
  language: 'ruby',
  source: 'framework',
  classes: [
    {
      concept: 'RAILS_ACTIVE_RECORD',
      phrases: ['active record', 'model association', 'has many', 'belongs to', 'named scope', 'active record relation'],
      targets: ['ActiveRecord', 'Relation', 'has_many', 'belongs_to', 'has_one', 'Associations', 'scope'],
    },
    {
      concept: 'RAILS_CALLBACKS',
      phrases: ['before save', 'after create', 'before action', 'model callback', 'after commit', 'controller callback'],
      targets: ['before_save', 'after_create', 'before_action', 'after_commit', 'before_validation', 'around_action', 'set_callback', 'run_callbacks'],
    },
    {
      concept: 'RAILS_VALIDATIONS',
      phrases: ['model validation', 'validates presence', 'custom validator', 'validation errors', 'uniqueness validation'],
      targets: ['validates', 'validates_presence_of', 'EachValidator', 'UniquenessValidator', 'valid?', 'Errors'],
    },
    {
      concept: 'RAILS_CONTROLLERS',
      phrases: ['rails controller', 'action controller', 'strong parameters', 'permit params', 'respond to format', 'redirect to'],
      targets: ['ActionController', 'ApplicationController', 'permit', 'respond_to', 'redirect_to', 'Parameters'],
    },
    {
      concept: 'RAILS_ROUTING',
      phrases: ['rails routes', 'resources route', 'route set', 'nested resources', 'named route', 'routing mapper'],
      targets: ['RouteSet', 'resources', 'namespace', 'Mapper', 'url_for', 'draw'],
    },
    {
      concept: 'RAILS_MIGRATIONS',
      phrases: ['rails migration', 'create table', 'add column', 'schema migration', 'change table', 'add index'],
      targets: ['Migration', 'create_table', 'add_column', 'change_table', 'remove_column', 'add_index', 'SchemaMigration'],
    },
    {
      concept: 'RAILS_ACTIVE_JOB',
      phrases: ['active job', 'background job', 'perform later', 'job queue adapter', 'enqueue job'],
      targets: ['ActiveJob', 'ApplicationJob', 'perform_later', 'perform_now', 'QueueAdapter', 'enqueue_at'],
    },
    {
      concept: 'RAILS_ACTION_MAILER',
      phrases: ['action mailer', 'mailer', 'deliver later', 'mailer view', 'mail delivery'],
      targets: ['ActionMailer', 'ApplicationMailer', 'deliver_later', 'deliver_now', 'MessageDelivery', 'mail'],
    },
    {
      concept: 'RAILS_VIEWS',
      phrases: ['view helper', 'partial template', 'layout template', 'erb template', 'form helper', 'render partial'],
      targets: ['ActionView', 'form_with', 'form_for', 'content_tag', 'link_to', 'PartialRenderer', 'TemplateRenderer'],
    },
    {
      concept: 'RAILS_CONCERNS',
      phrases: ['active support concern', 'concern module', 'included block', 'class methods block'],
      targets: ['Concern', 'included', 'class_methods', 'ActiveSupport'],
    },
    {
      concept: 'RAILS_CACHING',
      phrases: ['rails cache', 'fragment caching', 'cache store', 'russian doll caching', 'cache key'],
      targets: ['cache_key', 'MemoryStore', 'RedisCacheStore', 'FileStore', 'cache_key_with_version', 'ActiveSupport.Cache'],
    },
    {
      concept: 'RAILS_ACTIVE_STORAGE',
      phrases: ['active storage', 'attached file', 'has one attached', 'direct upload', 'storage service'],
      targets: ['ActiveStorage', 'has_one_attached', 'has_many_attached', 'Blob', 'Attachment', 'Attached'],
    },
    {
      concept: 'RAILS_ACTION_CABLE',
      phrases: ['action cable', 'cable channel', 'broadcast to channel', 'websocket channel', 'stream from'],
      targets: ['ActionCable', 'Channel', 'broadcast', 'stream_from', 'subscribed'],
    },
    {
      concept: 'RAILS_RAILTIES',
      phrases: ['railtie', 'rails engine', 'initializer block', 'rails application config'],
      targets: ['Railtie', 'Engine', 'initializer', 'Application', 'Configuration'],
    },
    {
      concept: 'RAILS_INSTRUMENTATION',
      phrases: ['instrumentation', 'notifications subscribe', 'instrument event', 'active support notifications'],
      targets: ['Notifications', 'instrument', 'Instrumenter', 'Subscriber', 'LogSubscriber'],
    },
  ],
});
