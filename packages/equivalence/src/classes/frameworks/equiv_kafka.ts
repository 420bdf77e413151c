import { builtinPlugin } from '../../validate.js';
import { concept } from '../concept.js';

/**
 * Apache Kafka clients and brokers (the Java client, and the names Go and Python clients share),
 * in the vocabulary of the Kafka documentation: producers, consumers and groups, offsets,
 * partitions, serdes, streams, connect.
 */
export default builtinPlugin({
  framework: 'kafka',
  language: ['java', 'go', 'python'],
  source: 'framework',
  classes: [
    concept('KAFKA_PRODUCER', ['kafka producer', 'producer record', 'producer config', 'send record', 'record accumulator', 'batch size'], [
      'KafkaProducer', 'ProducerRecord', 'ProducerConfig', 'SyncProducer', 'AsyncProducer', 'RecordAccumulator', 'Sender',
    ]),
    concept('KAFKA_CONSUMER', ['kafka consumer', 'poll records', 'consumer record', 'consumer config', 'fetch records'], [
      'KafkaConsumer', 'ConsumerRecord', 'ConsumerRecords', 'ConsumerConfig', 'Fetcher', 'ClassicKafkaConsumer', 'AsyncKafkaConsumer',
    ]),
    concept('KAFKA_CONSUMER_GROUP', ['consumer group', 'group coordinator', 'rebalance', 'group membership', 'partition assignment', 'rebalance listener'], [
      'ConsumerCoordinator', 'GroupCoordinator', 'AbstractCoordinator', 'ConsumerGroup', 'ConsumerRebalanceListener', 'ConsumerPartitionAssignor', 'ConsumerGroupHandler', 'onPartitionsAssigned',
    ]),
    concept('KAFKA_OFFSETS', ['offset commit', 'commit offsets', 'auto commit', 'offset reset', 'seek to offset'], [
      'commitSync', 'commitAsync', 'OffsetAndMetadata', 'OffsetCommitRequest', 'committed', 'seek', 'OffsetManager', 'MarkOffset',
    ]),
    concept('KAFKA_PARTITIONS', ['topic partition', 'partitioner', 'partition leader', 'partition key', 'sticky partitioner'], [
      'TopicPartition', 'Partitioner', 'DefaultPartitioner', 'PartitionInfo', 'HashPartitioner', 'BuiltInPartitioner',
    ]),
    concept('KAFKA_SERDES', ['kafka serializer', 'key serializer', 'value deserializer', 'serde', 'avro serializer'], [
      'Serializer', 'Deserializer', 'Serde', 'Serdes', 'StringSerializer', 'ByteArraySerializer', 'StringDeserializer',
    ]),
    concept('KAFKA_ADMIN', ['admin client', 'create topic', 'describe topic', 'topic config', 'delete topic'], [
      'AdminClient', 'KafkaAdminClient', 'NewTopic', 'createTopics', 'describeTopics', 'ClusterAdmin', 'CreateTopic',
    ]),
    concept('KAFKA_STREAMS', ['kafka streams', 'stream processor', 'topology builder', 'kstream', 'state store', 'windowed aggregation'], [
      'KafkaStreams', 'StreamsBuilder', 'Topology', 'KStream', 'KTable', 'StateStore', 'ProcessorContext', 'TimeWindows',
    ]),
    concept('KAFKA_BROKER_LOG', ['log segment', 'replica manager', 'log append', 'log cleaner', 'high watermark', 'in sync replicas'], [
      'LogSegment', 'ReplicaManager', 'UnifiedLog', 'LogCleaner', 'appendRecords', 'highWatermark', 'LogManager',
    ]),
    concept('KAFKA_CONNECT', ['kafka connect', 'source connector', 'sink connector', 'connector task', 'connect worker'], [
      'SourceConnector', 'SinkConnector', 'SourceTask', 'SinkTask', 'Connector', 'ConnectorConfig', 'WorkerTask',
    ]),
    concept('KAFKA_TRANSACTIONS', ['exactly once', 'idempotent producer', 'transactional producer', 'transaction coordinator', 'producer id'], [
      'TransactionManager', 'TransactionCoordinator', 'initTransactions', 'beginTransaction', 'commitTransaction', 'abortTransaction', 'ProducerIdAndEpoch',
    ]),
    concept('KAFKA_ERRORS', ['retriable exception', 'delivery timeout', 'record too large', 'kafka exception'], [
      'RetriableException', 'RecordTooLargeException', 'KafkaException', 'ApiException', 'TimeoutException',
    ]),
    concept('KAFKA_NETWORK', ['network client', 'metadata update', 'broker connection', 'fetch request', 'produce request'], [
      'NetworkClient', 'Metadata', 'MetadataUpdater', 'FetchRequest', 'ProduceRequest', 'KafkaApis',
    ]),
  ],
});
