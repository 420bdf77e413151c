import { builtinPlugin } from '../../validate.js';
import { concept } from '../concept.js';

/** Spring Framework and Spring Boot, in the vocabulary of their reference documentation. */
export default builtinPlugin({
  framework: 'spring',
  language: 'java',
  source: 'framework',
  classes: [
    concept('SPRING_WEB_CONTROLLERS', ['rest controller', 'request mapping', 'get mapping', 'path variable', 'request body', 'request param'], [
      'RestController', 'RequestMapping', 'GetMapping', 'PostMapping', 'PathVariable', 'RequestBody', 'RequestParam', 'ResponseEntity',
    ]),
    concept('SPRING_BEANS', ['spring bean', 'bean definition', 'component scan', 'application context', 'bean factory', 'autowired'], [
      'Autowired', 'ApplicationContext', 'BeanFactory', 'BeanDefinition', 'ComponentScan', 'AnnotationConfigApplicationContext', 'DefaultListableBeanFactory', 'BeanPostProcessor',
    ]),
    concept('SPRING_CONFIGURATION', ['configuration class', 'configuration properties', 'application properties', 'spring profile', 'property source'], [
      'ConfigurationProperties', 'EnableConfigurationProperties', 'PropertySource', 'Environment', 'Profile', 'PropertySourcesPlaceholderConfigurer',
    ]),
    concept('SPRING_DATA', ['spring data repository', 'jpa repository', 'crud repository', 'entity manager', 'derived query', 'jdbc template'], [
      'JpaRepository', 'CrudRepository', 'PagingAndSortingRepository', 'EntityManager', 'JdbcTemplate', 'SimpleJpaRepository',
    ]),
    concept('SPRING_TRANSACTIONS', ['transactional', 'transaction manager', 'transaction propagation', 'rollback rules', 'transaction template'], [
      'Transactional', 'PlatformTransactionManager', 'TransactionTemplate', 'TransactionInterceptor', 'TransactionDefinition',
    ]),
    concept('SPRING_SECURITY', ['spring security', 'security filter chain', 'user details service', 'password encoder', 'authentication manager', 'security context'], [
      'SecurityFilterChain', 'UserDetailsService', 'UserDetails', 'PasswordEncoder', 'AuthenticationManager', 'HttpSecurity', 'SecurityContextHolder',
    ]),
    concept('SPRING_BOOT', ['spring boot application', 'auto configuration', 'spring application', 'conditional on class', 'conditional on missing bean'], [
      'SpringApplication', 'SpringBootApplication', 'EnableAutoConfiguration', 'ConditionalOnClass', 'ConditionalOnMissingBean', 'AutoConfiguration', 'SpringApplication.run',
    ]),
    concept('SPRING_AOP', ['aspect', 'pointcut', 'around advice', 'aop proxy', 'join point'], [
      'Aspect', 'Around', 'Pointcut', 'ProceedingJoinPoint', 'JoinPoint', 'ProxyFactory', 'MethodInterceptor',
    ]),
    concept('SPRING_MVC_INFRASTRUCTURE', ['dispatcher servlet', 'handler mapping', 'handler adapter', 'view resolver', 'handler interceptor', 'controller advice'], [
      'DispatcherServlet', 'HandlerMapping', 'HandlerAdapter', 'ViewResolver', 'HandlerInterceptor', 'ControllerAdvice', 'ExceptionHandler', 'RestControllerAdvice',
    ]),
    concept('SPRING_EVENTS', ['application event', 'event listener', 'publish event', 'application listener'], [
      'ApplicationEvent', 'EventListener', 'ApplicationEventPublisher', 'ApplicationListener', 'publishEvent',
    ]),
    concept('SPRING_SCHEDULING', ['scheduled task', 'enable scheduling', 'async method', 'task executor', 'cron expression'], [
      'Scheduled', 'EnableScheduling', 'EnableAsync', 'TaskExecutor', 'ThreadPoolTaskExecutor', 'TaskScheduler', 'CronExpression',
    ]),
    concept('SPRING_WEBFLUX', ['webflux', 'reactive endpoint', 'mono', 'flux', 'router function', 'web client'], [
      'Mono', 'Flux', 'RouterFunction', 'WebClient', 'ServerResponse', 'HandlerFunction', 'WebFilter',
    ]),
    concept('SPRING_VALIDATION', ['bean validation', 'valid annotation', 'constraint validator', 'binding result', 'method argument not valid'], [
      'Validated', 'ConstraintValidator', 'BindingResult', 'MethodArgumentNotValidException', 'LocalValidatorFactoryBean',
    ]),
  ],
});
