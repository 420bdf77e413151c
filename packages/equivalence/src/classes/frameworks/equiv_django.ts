import { builtinPlugin } from '../../validate.js';
import { concept } from '../concept.js';

/** Django, in the vocabulary of its documentation: models and querysets, migrations, forms, views, the admin. */
export default builtinPlugin({
  framework: 'django',
  language: 'python',
  source: 'framework',
  classes: [
    concept('DJANGO_MODELS', ['django model', 'model field', 'model meta options', 'custom manager', 'model inheritance', 'abstract model'], [
      'ModelBase', 'BaseManager', 'ForeignKey', 'ManyToManyField', 'OneToOneField', 'ModelState', 'contribute_to_class',
    ]),
    concept('DJANGO_QUERYSETS', ['queryset', 'query set', 'select related', 'prefetch related', 'q object', 'f expression', 'annotate queryset', 'aggregate queryset'], [
      'QuerySet', 'annotate', 'aggregate', 'select_related', 'prefetch_related', 'values_list', 'Query.add_q', 'Query.build_filter',
    ]),
    concept('DJANGO_MIGRATIONS', ['makemigrations', 'migration operation', 'migration autodetector', 'schema editor', 'squash migrations', 'data migration', 'migration state'], [
      'MigrationAutodetector', 'Operation', 'RunPython', 'AddField', 'AlterField', 'CreateModel', 'BaseDatabaseSchemaEditor', 'MigrationExecutor', 'MigrationLoader', 'ProjectState',
    ]),
    concept('DJANGO_VALIDATORS', ['custom validator', 'writing validators', 'built-in validator', 'validator function', 'regex validator', 'email address validation', 'full clean'], [
      'EmailValidator', 'URLValidator', 'RegexValidator', 'BaseValidator', 'MinValueValidator', 'MaxValueValidator', 'ValidationError', 'full_clean', 'clean_fields',
    ]),
    concept('DJANGO_FORMS', ['django form', 'model form', 'form field', 'formset', 'form widget', 'cleaned data', 'bound field'], [
      'BaseForm', 'ModelForm', 'BaseModelForm', 'BaseFormSet', 'formset_factory', 'BoundField', 'Widget', 'cleaned_data',
    ]),
    concept('DJANGO_VIEWS', ['class based view', 'generic view', 'detail view', 'list view', 'template view', 'view mixin'], [
      'TemplateView', 'ListView', 'DetailView', 'RedirectView', 'as_view', 'View.dispatch', 'get_context_data', 'ContextMixin',
    ]),
    concept('DJANGO_URLS', ['url conf', 'url pattern', 'url resolver', 'reverse url', 'path converter'], [
      'URLPattern', 'URLResolver', 're_path', 'reverse', 'resolve', 'register_converter', 'RoutePattern',
    ]),
    concept('DJANGO_MIDDLEWARE', ['django middleware', 'process request', 'process view', 'process exception', 'middleware mixin'], [
      'MiddlewareMixin', 'process_request', 'process_view', 'process_response', 'process_exception', 'get_response',
    ]),
    concept('DJANGO_ADMIN', ['admin site', 'model admin', 'admin action', 'list display', 'admin inline', 'changelist'], [
      'ModelAdmin', 'AdminSite', 'InlineModelAdmin', 'TabularInline', 'StackedInline', 'ChangeList', 'get_inlines', 'get_list_display',
    ]),
    concept('DJANGO_TEMPLATE_TAGS', ['template tag', 'template filter', 'custom template tag', 'inclusion tag', 'simple tag', 'template library'], [
      'Library', 'Library.filter', 'Library.tag', 'Library.simple_tag', 'Library.inclusion_tag', 'RequestContext', 'TemplateSyntaxError',
    ]),
    concept('DJANGO_SIGNALS', ['django signal', 'post save', 'pre save', 'signal receiver', 'model signal', 'connect signal'], [
      'Signal', 'receiver', 'post_save', 'pre_save', 'post_delete', 'Signal.connect', 'Signal.send',
    ]),
    concept('DJANGO_AUTH', ['authentication backend', 'custom user model', 'login required', 'permission required', 'permissions mixin'], [
      'ModelBackend', 'BaseBackend', 'AbstractUser', 'AbstractBaseUser', 'PermissionsMixin', 'login_required', 'permission_required', 'authenticate',
    ]),
    concept('DJANGO_DATABASE_BACKENDS', ['database backend', 'database router', 'sql compiler', 'database operations', 'database features'], [
      'BaseDatabaseWrapper', 'SQLCompiler', 'BaseDatabaseOperations', 'BaseDatabaseFeatures', 'ConnectionRouter', 'as_sql',
    ]),
    concept('DJANGO_MANAGEMENT_COMMANDS', ['management command', 'custom command', 'call command', 'manage py'], [
      'BaseCommand', 'BaseCommand.handle', 'add_arguments', 'call_command', 'ManagementUtility', 'CommandError',
    ]),
    concept('DJANGO_CACHE', ['cache backend', 'cache framework', 'per view cache', 'cache page', 'template fragment caching'], [
      'BaseCache', 'cache_page', 'CacheHandler', 'make_template_fragment_key', 'get_cache_key', 'UpdateCacheMiddleware',
    ]),
  ],
});
