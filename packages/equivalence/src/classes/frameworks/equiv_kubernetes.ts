import { defineEquivalenceClasses } from '../../define.js';

/**
 * Kubernetes and its Go client libraries (client-go, controller-runtime), in the vocabulary
 * of their documentation: controllers, informers, work queues, clientsets, listers, the
 * scheduler framework, admission.
 */
export default defineEquivalenceClasses({
  framework: 'kubernetes',
  language: 'go',
  source: 'framework',
  classes: [
    {
      concept: 'K8S_CONTROLLERS',
      phrases: ['kubernetes controller', 'reconcile loop', 'reconciliation', 'controller manager', 'sync handler', 'process next work item'],
      targets: ['Reconcile', 'Reconciler', 'NewController', 'syncHandler', 'processNextWorkItem', 'runWorker', 'ControllerContext'],
    },
    {
      concept: 'K8S_INFORMERS',
      phrases: ['informer', 'resync', 'shared informer', 'informer factory', 'event handler funcs', 'resync period', 'cache sync', 'watch events'],
      targets: ['SharedInformer', 'SharedIndexInformer', 'NewSharedInformerFactory', 'SharedInformerFactory', 'ResourceEventHandlerFuncs', 'AddEventHandler', 'HasSynced', 'WaitForCacheSync'],
    },
    {
      concept: 'K8S_WORKQUEUE',
      phrases: ['workqueue', 'rate limited queue', 'requeue', 'delaying queue', 'queue key'],
      targets: ['RateLimitingInterface', 'TypedRateLimitingInterface', 'NewRateLimitingQueue', 'AddRateLimited', 'Forget', 'NumRequeues', 'DelayingInterface', 'AddAfter'],
    },
    {
      concept: 'K8S_CLIENTSET',
      phrases: ['clientset', 'kubernetes client', 'rest client', 'dynamic client', 'in cluster config', 'kubeconfig'],
      targets: ['Clientset', 'NewForConfig', 'RESTClient', 'DynamicClient', 'InClusterConfig', 'BuildConfigFromFlags', 'CoreV1'],
    },
    {
      concept: 'K8S_LISTERS',
      phrases: ['lister', 'indexer', 'namespace lister', 'list from cache', 'cache key func'],
      targets: ['Lister', 'Indexer', 'NewIndexer', 'GetByKey', 'ByIndex', 'MetaNamespaceKeyFunc', 'SplitMetaNamespaceKey'],
    },
    {
      concept: 'K8S_ADMISSION',
      phrases: ['admission webhook', 'mutating webhook', 'validating webhook', 'admission controller', 'admission review'],
      targets: ['AdmissionReview', 'MutatingWebhook', 'ValidatingWebhook', 'AdmissionRequest', 'AdmissionResponse', 'Admit', 'MutationInterface'],
    },
    {
      concept: 'K8S_API_TYPES',
      phrases: ['custom resource', 'custom resource definition', 'object meta', 'type meta', 'group version kind', 'runtime scheme'],
      targets: ['ObjectMeta', 'TypeMeta', 'CustomResourceDefinition', 'GroupVersionKind', 'GroupVersionResource', 'Scheme', 'SchemeBuilder', 'AddToScheme', 'DeepCopyObject'],
    },
    {
      concept: 'K8S_SCHEDULER',
      phrases: ['kube scheduler', 'scheduling framework', 'filter plugin', 'score plugin', 'node affinity', 'pod scheduling'],
      targets: ['Scheduler', 'FilterPlugin', 'ScorePlugin', 'PreFilterPlugin', 'ScheduleOne', 'schedulePod', 'NodeInfo', 'CycleState'],
    },
    {
      concept: 'K8S_KUBELET',
      phrases: ['kubelet', 'pod lifecycle', 'sync pod', 'container runtime', 'pod worker'],
      targets: ['Kubelet', 'SyncPod', 'podWorkers', 'HandlePodAdditions', 'PodManager', 'RuntimeService'],
    },
    {
      concept: 'K8S_LEADER_ELECTION',
      phrases: ['leader election', 'lease lock', 'leader elector'],
      targets: ['LeaderElector', 'LeaderElectionConfig', 'RunOrDie', 'LeaseLock', 'NewLeaderElector', 'OnStartedLeading'],
    },
    {
      concept: 'K8S_APISERVER',
      phrases: ['api server', 'rest storage', 'registry store', 'handler chain', 'create strategy'],
      targets: ['GenericAPIServer', 'RESTStorage', 'DefaultBuildHandlerChain', 'InstallAPIGroup', 'RESTCreateStrategy', 'RESTUpdateStrategy'],
    },
    {
      concept: 'K8S_SELECTORS',
      phrases: ['label selector', 'field selector', 'match labels', 'selector requirement'],
      targets: ['LabelSelector', 'Selector', 'Requirement', 'SelectorFromSet', 'ParseSelector', 'LabelSelectorAsSelector'],
    },
    {
      concept: 'K8S_EVENTS',
      phrases: ['event recorder', 'record event', 'event broadcaster'],
      targets: ['EventRecorder', 'NewBroadcaster', 'EventBroadcaster', 'Eventf', 'NewRecorder'],
    },
    {
      concept: 'K8S_FINALIZERS_OWNERSHIP',
      phrases: ['finalizer', 'owner reference', 'garbage collector', 'cascading deletion', 'controller reference'],
      targets: ['Finalizers', 'OwnerReference', 'GarbageCollector', 'SetControllerReference', 'AddFinalizer', 'RemoveFinalizer', 'ContainsFinalizer'],
    },
  ],
});
