import { builtinPlugin } from '../../validate.js';
import { concept } from '../concept.js';

/** React, in the vocabulary of its documentation: hooks, context, components, refs, rendering, the reconciler. */
export default builtinPlugin({
  framework: 'react',
  language: ['typescript', 'javascript'],
  source: 'framework',
  classes: [
    concept('REACT_HOOKS', ['react hook', 'use state', 'use effect', 'custom hook', 'use memo', 'use callback', 'rules of hooks'], [
      'useState', 'useEffect', 'useMemo', 'useCallback', 'useReducer', 'useLayoutEffect', 'useSyncExternalStore',
    ]),
    concept('REACT_CONTEXT', ['react context', 'context provider', 'use context', 'context consumer', 'context value'], [
      'createContext', 'useContext', 'readContext', 'pushProvider', 'ContextProvider',
    ]),
    concept('REACT_COMPONENTS', ['function component', 'class component', 'react component', 'component props', 'jsx element', 'react element'], [
      'Component', 'PureComponent', 'FunctionComponent', 'ReactElement', 'ReactNode', 'createElement', 'cloneElement',
    ]),
    concept('REACT_LIFECYCLE', ['component did mount', 'component will unmount', 'should component update', 'lifecycle method', 'derived state from props'], [
      'componentDidMount', 'componentDidUpdate', 'componentWillUnmount', 'shouldComponentUpdate', 'getDerivedStateFromProps', 'getSnapshotBeforeUpdate',
    ]),
    concept('REACT_REFS', ['forward ref', 'ref forwarding', 'imperative handle', 'callback ref', 'use ref'], [
      'forwardRef', 'useImperativeHandle', 'createRef', 'RefObject', 'useRef',
    ]),
    concept('REACT_PERFORMANCE', ['memo component', 'avoid re-render', 'lazy component', 'suspense boundary', 'code splitting', 'transition update'], [
      'memo', 'lazy', 'Suspense', 'useTransition', 'useDeferredValue', 'startTransition',
    ]),
    concept('REACT_ERROR_BOUNDARY', ['error boundary', 'component did catch', 'derived state from error', 'fallback ui'], [
      'ErrorBoundary', 'componentDidCatch', 'getDerivedStateFromError',
    ]),
    concept('REACT_DOM_ROOT', ['create root', 'hydrate root', 'react dom', 'portal', 'flush sync', 'hydration mismatch'], [
      'createRoot', 'hydrateRoot', 'createPortal', 'ReactDOM', 'flushSync', 'ReactDOMRoot',
    ]),
    concept('REACT_RECONCILER', ['reconciler', 'fiber', 'work loop', 'commit phase', 'render phase', 'update lane'], [
      'FiberNode', 'createFiber', 'beginWork', 'completeWork', 'commitRoot', 'workLoopSync', 'performUnitOfWork', 'reconcileChildren', 'scheduleUpdateOnFiber',
    ]),
    concept('REACT_STATE_UPDATES', ['state update', 'set state', 'batched updates', 'update queue', 'force update'], [
      'setState', 'batchedUpdates', 'enqueueSetState', 'dispatchSetState', 'forceUpdate', 'enqueueUpdate',
    ]),
  ],
});
