import { builtinPlugin } from '../../validate.js';
import { concept } from '../concept.js';

/**
 * Kubernetes and its Go client libraries (client-go, controller-runtime), in the vocabulary
 * of their documentation: controllers, informers, work queues, clientsets, listers, the
 * scheduler framework, admission.
 */
export default builtinPlugin({
  framework: 'kubernetes',
  language: 'go',
  source: 'framework',
  classes: [
    concept('K8S_CONTROLLERS', ['kubernetes controller', 'reconcile loop', 'reconciliation', 'controller manager', 'sync handler', 'process next work item'], [
      'Reconcile', 'Reconciler', 'NewController', 'syncHandler', 'processNextWorkItem', 'runWorker', 'ControllerContext',
    ]),
    concept('K8S_INFORMERS', ['informer', 'resync', 'shared informer', 'informer factory', 'event handler funcs', 'resync period', 'cache sync', 'watch events'], [
      'SharedInformer', 'SharedIndexInformer', 'NewSharedInformerFactory', 'SharedInformerFactory', 'ResourceEventHandlerFuncs', 'AddEventHandler', 'HasSynced', 'WaitForCacheSync',
    ]),
    concept('K8S_WORKQUEUE', ['workqueue', 'rate limited queue', 'requeue', 'delaying queue', 'queue key'], [
      'RateLimitingInterface', 'TypedRateLimitingInterface', 'NewRateLimitingQueue', 'AddRateLimited', 'Forget', 'NumRequeues', 'DelayingInterface', 'AddAfter',
    ]),
    concept('K8S_CLIENTSET', ['clientset', 'kubernetes client', 'rest client', 'dynamic client', 'in cluster config', 'kubeconfig'], [
      'Clientset', 'NewForConfig', 'RESTClient', 'DynamicClient', 'InClusterConfig', 'BuildConfigFromFlags', 'CoreV1',
    ]),
    concept('K8S_LISTERS', ['lister', 'indexer', 'namespace lister', 'list from cache', 'cache key func'], [
      'Lister', 'Indexer', 'NewIndexer', 'GetByKey', 'ByIndex', 'MetaNamespaceKeyFunc', 'SplitMetaNamespaceKey',
    ]),
    concept('K8S_ADMISSION', ['admission webhook', 'mutating webhook', 'validating webhook', 'admission controller', 'admission review'], [
      'AdmissionReview', 'MutatingWebhook', 'ValidatingWebhook', 'AdmissionRequest', 'AdmissionResponse', 'Admit', 'MutationInterface',
    ]),
    concept('K8S_API_TYPES', ['custom resource', 'custom resource definition', 'object meta', 'type meta', 'group version kind', 'runtime scheme'], [
      'ObjectMeta', 'TypeMeta', 'CustomResourceDefinition', 'GroupVersionKind', 'GroupVersionResource', 'Scheme', 'SchemeBuilder', 'AddToScheme', 'DeepCopyObject',
    ]),
    concept('K8S_SCHEDULER', ['kube scheduler', 'scheduling framework', 'filter plugin', 'score plugin', 'node affinity', 'pod scheduling'], [
      'Scheduler', 'FilterPlugin', 'ScorePlugin', 'PreFilterPlugin', 'ScheduleOne', 'schedulePod', 'NodeInfo', 'CycleState',
    ]),
    concept('K8S_KUBELET', ['kubelet', 'pod lifecycle', 'sync pod', 'container runtime', 'pod worker'], [
      'Kubelet', 'SyncPod', 'podWorkers', 'HandlePodAdditions', 'PodManager', 'RuntimeService',
    ]),
    concept('K8S_LEADER_ELECTION', ['leader election', 'lease lock', 'leader elector'], [
      'LeaderElector', 'LeaderElectionConfig', 'RunOrDie', 'LeaseLock', 'NewLeaderElector', 'OnStartedLeading',
    ]),
    concept('K8S_APISERVER', ['api server', 'rest storage', 'registry store', 'handler chain', 'create strategy'], [
      'GenericAPIServer', 'RESTStorage', 'DefaultBuildHandlerChain', 'InstallAPIGroup', 'RESTCreateStrategy', 'RESTUpdateStrategy',
    ]),
    concept('K8S_SELECTORS', ['label selector', 'field selector', 'match labels', 'selector requirement'], [
      'LabelSelector', 'Selector', 'Requirement', 'SelectorFromSet', 'ParseSelector', 'LabelSelectorAsSelector',
    ]),
    concept('K8S_EVENTS', ['event recorder', 'record event', 'event broadcaster'], [
      'EventRecorder', 'NewBroadcaster', 'EventBroadcaster', 'Eventf', 'NewRecorder',
    ]),
    concept('K8S_FINALIZERS_OWNERSHIP', ['finalizer', 'owner reference', 'garbage collector', 'cascading deletion', 'controller reference'], [
      'Finalizers', 'OwnerReference', 'GarbageCollector', 'SetControllerReference', 'AddFinalizer', 'RemoveFinalizer', 'ContainsFinalizer',
    ]),
  ],
});
