import { concept } from '../concept.js';
import { languagePlugin } from './define.js';

/** Python idioms: dunder protocols, dataclasses, asyncio, decorators, pytest. */
export const PYTHON_PLUGIN = languagePlugin('python', 'python', [
  concept('PY_ENTRY_POINT', ['entry point', 'application factory', 'create app', 'wsgi app', 'asgi app', 'main module'], [
    'create_app', 'wsgi_app', 'asgi_app', 'make_app', 'cli_main', 'application',
  ]),
  concept('PY_CONSTRUCTOR', ['constructor', 'initializer', 'init method', 'object initialization', 'post init'], [
    '__init__', '__new__', '__post_init__', '__init_subclass__',
  ], 'callable'),
  concept('PY_CALLABLE', ['callable object', 'call operator', 'make it callable', 'callable instance'], [
    '__call__',
  ], 'callable'),
  concept('PY_CONTEXT_MANAGER', ['context manager', 'with statement', 'enter and exit', 'resource cleanup', 'exit stack'], [
    '__enter__', '__exit__', '__aenter__', '__aexit__', 'contextmanager', 'asynccontextmanager', 'ExitStack',
  ]),
  concept('PY_DATACLASS', ['dataclass', 'data class', 'named tuple', 'typed dict', 'pydantic model', 'record type'], [
    'dataclass', 'NamedTuple', 'namedtuple', 'TypedDict', 'BaseModel', 'asdict', 'field', 'attrs',
  ]),
  concept('PY_ASYNCIO', ['asyncio', 'event loop', 'coroutine', 'async await', 'gather tasks', 'create task'], [
    'get_event_loop', 'new_event_loop', 'run_until_complete', 'create_task', 'gather', 'ensure_future', 'AbstractEventLoop',
  ]),
  concept('PY_REPR', ['string representation', 'repr', 'printable form', 'str method'], [
    '__repr__', '__str__', '__format__', '__rich_repr__',
  ], 'callable'),
  concept('PY_ITERATION', ['iterator protocol', 'generator', 'iterable', 'yield values', 'container protocol'], [
    '__iter__', '__next__', '__aiter__', '__anext__', '__getitem__', '__len__', '__contains__',
  ]),
  concept('PY_EQUALITY', ['equality', 'hashable', 'rich comparison', 'total ordering', 'compare objects'], [
    '__eq__', '__hash__', '__lt__', '__le__', '__ne__', 'total_ordering',
  ]),
  concept('PY_ATTRIBUTES', ['attribute access', 'dynamic attribute', 'getattr', 'descriptor', 'cached property', 'lazy attribute'], [
    '__getattr__', '__setattr__', '__getattribute__', '__get__', '__set__', '__set_name__', 'cached_property', 'property',
  ]),
  concept('PY_DECORATORS', ['decorator', 'wrap function', 'functools wraps', 'function decorator'], [
    'wraps', 'decorator', 'wrapper', 'update_wrapper',
  ]),
  concept('PY_TYPING', ['type hints', 'protocol class', 'abstract base class', 'abstract method', 'generic type', 'type variable'], [
    'Protocol', 'abstractmethod', 'ABCMeta', 'TypeVar', 'Generic', 'runtime_checkable', 'overload',
  ]),
  concept('PY_LOGGING', ['logging', 'logger', 'log handler', 'log formatter', 'log record'], [
    'getLogger', 'Logger', 'LoggerAdapter', 'LogRecord', 'StreamHandler', 'basicConfig', 'dictConfig',
  ]),
  concept('PY_TESTING', ['pytest', 'pytest fixture', 'parametrize', 'monkeypatch', 'unittest', 'conftest'], [
    'fixture', 'parametrize', 'monkeypatch', 'TestCase', 'setUpClass', 'tearDownClass', 'pytest_configure', 'tmp_path',
  ]),
]);
