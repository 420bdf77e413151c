import { builtinPlugin } from '../../validate.js';
import { concept } from '../concept.js';

/** Flask, in the vocabulary of its documentation: the app object, blueprints, request hooks, contexts. */
export default builtinPlugin({
  framework: 'flask',
  language: 'python',
  source: 'framework',
  classes: [
    concept('FLASK_APP', ['flask app', 'application object', 'application factory', 'app context', 'application context'], [
      'Flask', 'create_app', 'AppContext', 'app_context', 'current_app', 'Flask.wsgi_app',
    ]),
    concept('FLASK_REQUEST_HOOKS', ['before request', 'after request', 'teardown request', 'request hook', 'teardown appcontext'], [
      'before_request', 'after_request', 'teardown_request', 'teardown_appcontext', 'preprocess_request', 'process_response', 'do_teardown_request',
    ]),
    concept('FLASK_BLUEPRINTS', ['blueprint', 'register blueprint', 'blueprint setup', 'modular application', 'nested blueprint'], [
      'Blueprint', 'register_blueprint', 'BlueprintSetupState', 'Blueprint.register', 'record_once', 'Blueprint.record',
    ]),
    concept('FLASK_ROUTING', ['route decorator', 'url rule', 'add url rule', 'url for', 'view function', 'method view'], [
      'add_url_rule', 'url_for', 'Scaffold.route', 'MethodView', 'dispatch_request', 'full_dispatch_request',
    ]),
    concept('FLASK_REQUEST_RESPONSE', ['request object', 'response object', 'make response', 'jsonify', 'request data', 'response class'], [
      'make_response', 'jsonify', 'get_json', 'Flask.make_response', 'Flask.response_class', 'Flask.request_class',
    ]),
    concept('FLASK_CONFIG', ['flask config', 'config from object', 'config from pyfile', 'instance folder', 'config from env'], [
      'Config.from_object', 'from_pyfile', 'from_envvar', 'from_mapping', 'from_prefixed_env', 'instance_path',
    ]),
    concept('FLASK_ERRORS', ['error handler', 'register error handler', 'handle exception', 'abort request', 'http exception'], [
      'errorhandler', 'register_error_handler', 'handle_exception', 'handle_user_exception', 'handle_http_exception', 'abort', 'HTTPException',
    ]),
    concept('FLASK_TEMPLATES', ['render template', 'context processor', 'jinja environment', 'template filter', 'template global'], [
      'render_template', 'context_processor', 'template_filter', 'template_global', 'DispatchingJinjaLoader', 'update_template_context', 'create_jinja_environment',
    ]),
    concept('FLASK_SESSIONS', ['flask session', 'session interface', 'secure cookie session', 'signed cookie', 'session cookie'], [
      'SessionInterface', 'SecureCookieSessionInterface', 'SecureCookieSession', 'NullSession', 'open_session', 'save_session',
    ]),
    concept('FLASK_CLI', ['flask cli', 'flask command', 'app group', 'cli command', 'script info', 'load dotenv'], [
      'FlaskGroup', 'AppGroup', 'ScriptInfo', 'with_appcontext', 'run_command', 'load_dotenv',
    ]),
    concept('FLASK_SIGNALS', ['request started', 'request finished', 'template rendered', 'flask signal', 'got request exception'], [
      'request_started', 'request_finished', 'template_rendered', 'got_request_exception', 'appcontext_pushed', 'appcontext_tearing_down',
    ]),
    concept('FLASK_TESTING', ['test client', 'flask test client', 'test request context', 'cli runner'], [
      'FlaskClient', 'test_client', 'test_request_context', 'FlaskCliRunner', 'test_cli_runner',
    ]),
  ],
});
