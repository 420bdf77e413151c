import { defineEquivalenceClasses } from '../../define.js';

/** React, in the vocabulary of its documentation: hooks, context, components, refs, rendering, the reconciler. */
export default defineEquivalenceClasses({
  framework: 'react',
  language: ['typescript', 'javascript'],
  source: 'framework',
  classes: [
    {
      concept: 'REACT_HOOKS',
      phrases: ['react hook', 'use state', 'use effect', 'custom hook', 'use memo', 'use callback', 'rules of hooks'],
      targets: ['useState', 'useEffect', 'useMemo', 'useCallback', 'useReducer', 'useLayoutEffect', 'useSyncExternalStore'],
    },
    {
      concept: 'REACT_CONTEXT',
      phrases: ['react context', 'context provider', 'use context', 'context consumer', 'context value'],
      targets: ['createContext', 'useContext', 'readContext', 'pushProvider', 'ContextProvider'],
    },
    {
      concept: 'REACT_COMPONENTS',
      phrases: ['function component', 'class component', 'react component', 'component props', 'jsx element', 'react element'],
      targets: ['Component', 'PureComponent', 'FunctionComponent', 'ReactElement', 'ReactNode', 'createElement', 'cloneElement'],
    },
    {
      concept: 'REACT_LIFECYCLE',
      phrases: ['component did mount', 'component will unmount', 'should component update', 'lifecycle method', 'derived state from props'],
      targets: ['componentDidMount', 'componentDidUpdate', 'componentWillUnmount', 'shouldComponentUpdate', 'getDerivedStateFromProps', 'getSnapshotBeforeUpdate'],
    },
    {
      concept: 'REACT_REFS',
      phrases: ['forward ref', 'ref forwarding', 'imperative handle', 'callback ref', 'use ref'],
      targets: ['forwardRef', 'useImperativeHandle', 'createRef', 'RefObject', 'useRef'],
    },
    {
      concept: 'REACT_PERFORMANCE',
      phrases: ['memo component', 'avoid re-render', 'lazy component', 'suspense boundary', 'code splitting', 'transition update'],
      targets: ['memo', 'lazy', 'Suspense', 'useTransition', 'useDeferredValue', 'startTransition'],
    },
    {
      concept: 'REACT_ERROR_BOUNDARY',
      phrases: ['error boundary', 'component did catch', 'derived state from error', 'fallback ui'],
      targets: ['ErrorBoundary', 'componentDidCatch', 'getDerivedStateFromError'],
    },
    {
      concept: 'REACT_DOM_ROOT',
      phrases: ['create root', 'hydrate root', 'react dom', 'portal', 'flush sync', 'hydration mismatch'],
      targets: ['createRoot', 'hydrateRoot', 'createPortal', 'ReactDOM', 'flushSync', 'ReactDOMRoot'],
    },
    {
      concept: 'REACT_RECONCILER',
      phrases: ['reconciler', 'fiber', 'work loop', 'commit phase', 'render phase', 'update lane'],
      targets: ['FiberNode', 'createFiber', 'beginWork', 'completeWork', 'commitRoot', 'workLoopSync', 'performUnitOfWork', 'reconcileChildren', 'scheduleUpdateOnFiber'],
    },
    {
      concept: 'REACT_STATE_UPDATES',
      phrases: ['state update', 'set state', 'batched updates', 'update queue', 'force update'],
      targets: ['setState', 'batchedUpdates', 'enqueueSetState', 'dispatchSetState', 'forceUpdate', 'enqueueUpdate'],
    },
  ],
});
