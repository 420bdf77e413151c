import { defineEquivalenceClasses } from '../../define.js';

/**
 * Apache Kafka clients and brokers (the Java client, and the names Go and Python clients share),
 * in the vocabulary of the Kafka documentation: producers, consumers and groups, offsets,
 * partitions, serdes, streams, connect.
 */
export default defineEquivalenceClasses({
  framework: 'kafka',
  language: ['java', 'go', 'python'],
  source: 'framework',
  classes: [
    {
      concept: 'KAFKA_PRODUCER',
      phrases: ['kafka producer', 'producer record', 'producer config', 'send record', 'record accumulator', 'batch size'],
      targets: ['KafkaProducer', 'ProducerRecord', 'ProducerConfig', 'SyncProducer', 'AsyncProducer', 'RecordAccumulator', 'Sender'],
    },
    {
      concept: 'KAFKA_CONSUMER',
      phrases: ['kafka consumer', 'poll records', 'consumer record', 'consumer config', 'fetch records'],
      targets: ['KafkaConsumer', 'ConsumerRecord', 'ConsumerRecords', 'ConsumerConfig', 'Fetcher', 'ClassicKafkaConsumer', 'AsyncKafkaConsumer'],
    },
    {
      concept: 'KAFKA_CONSUMER_GROUP',
      phrases: ['consumer group', 'group coordinator', 'rebalance', 'group membership', 'partition assignment', 'rebalance listener'],
      targets: ['ConsumerCoordinator', 'GroupCoordinator', 'AbstractCoordinator', 'ConsumerGroup', 'ConsumerRebalanceListener', 'ConsumerPartitionAssignor', 'ConsumerGroupHandler', 'onPartitionsAssigned'],
    },
    {
      concept: 'KAFKA_OFFSETS',
      phrases: ['offset commit', 'commit offsets', 'auto commit', 'offset reset', 'seek to offset'],
      targets: ['commitSync', 'commitAsync', 'OffsetAndMetadata', 'OffsetCommitRequest', 'committed', 'seek', 'OffsetManager', 'MarkOffset'],
    },
    {
      concept: 'KAFKA_PARTITIONS',
      phrases: ['topic partition', 'partitioner', 'partition leader', 'partition key', 'sticky partitioner'],
      targets: ['TopicPartition', 'Partitioner', 'DefaultPartitioner', 'PartitionInfo', 'HashPartitioner', 'BuiltInPartitioner'],
    },
    {
      concept: 'KAFKA_SERDES',
      phrases: ['kafka serializer', 'key serializer', 'value deserializer', 'serde', 'avro serializer'],
      targets: ['Serializer', 'Deserializer', 'Serde', 'Serdes', 'StringSerializer', 'ByteArraySerializer', 'StringDeserializer'],
    },
    {
      concept: 'KAFKA_ADMIN',
      phrases: ['admin client', 'create topic', 'describe topic', 'topic config', 'delete topic'],
      targets: ['AdminClient', 'KafkaAdminClient', 'NewTopic', 'createTopics', 'describeTopics', 'ClusterAdmin', 'CreateTopic'],
    },
    {
      concept: 'KAFKA_STREAMS',
      phrases: ['kafka streams', 'stream processor', 'topology builder', 'kstream', 'state store', 'windowed aggregation'],
      targets: ['KafkaStreams', 'StreamsBuilder', 'Topology', 'KStream', 'KTable', 'StateStore', 'ProcessorContext', 'TimeWindows'],
    },
    {
      concept: 'KAFKA_BROKER_LOG',
      phrases: ['log segment', 'replica manager', 'log append', 'log cleaner', 'high watermark', 'in sync replicas'],
      targets: ['LogSegment', 'ReplicaManager', 'UnifiedLog', 'LogCleaner', 'appendRecords', 'highWatermark', 'LogManager'],
    },
    {
      concept: 'KAFKA_CONNECT',
      phrases: ['kafka connect', 'source connector', 'sink connector', 'connector task', 'connect worker'],
      targets: ['SourceConnector', 'SinkConnector', 'SourceTask', 'SinkTask', 'Connector', 'ConnectorConfig', 'WorkerTask'],
    },
    {
      concept: 'KAFKA_TRANSACTIONS',
      phrases: ['exactly once', 'idempotent producer', 'transactional producer', 'transaction coordinator', 'producer id'],
      targets: ['TransactionManager', 'TransactionCoordinator', 'initTransactions', 'beginTransaction', 'commitTransaction', 'abortTransaction', 'ProducerIdAndEpoch'],
    },
    {
      concept: 'KAFKA_ERRORS',
      phrases: ['retriable exception', 'delivery timeout', 'record too large', 'kafka exception'],
      targets: ['RetriableException', 'RecordTooLargeException', 'KafkaException', 'ApiException', 'TimeoutException'],
    },
    {
      concept: 'KAFKA_NETWORK',
      phrases: ['network client', 'metadata update', 'broker connection', 'fetch request', 'produce request'],
      targets: ['NetworkClient', 'Metadata', 'MetadataUpdater', 'FetchRequest', 'ProduceRequest', 'KafkaApis'],
    },
  ],
});
