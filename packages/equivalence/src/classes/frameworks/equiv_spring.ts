import { defineEquivalenceClasses } from '../../define.js';

/** Spring Framework and Spring Boot, in the vocabulary of their reference documentation. */
export default defineEquivalenceClasses({
  framework: 'spring',
  language: 'java',
  source: 'framework',
  classes: [
    {
      concept: 'SPRING_WEB_CONTROLLERS',
      phrases: ['rest controller', 'request mapping', 'get mapping', 'path variable', 'request body', 'request param'],
      targets: ['RestController', 'RequestMapping', 'GetMapping', 'PostMapping', 'PathVariable', 'RequestBody', 'RequestParam', 'ResponseEntity'],
    },
    {
      concept: 'SPRING_BEANS',
      phrases: ['spring bean', 'bean definition', 'component scan', 'application context', 'bean factory', 'autowired'],
      targets: ['Autowired', 'ApplicationContext', 'BeanFactory', 'BeanDefinition', 'ComponentScan', 'AnnotationConfigApplicationContext', 'DefaultListableBeanFactory', 'BeanPostProcessor'],
    },
    {
      concept: 'SPRING_CONFIGURATION',
      phrases: ['configuration class', 'configuration properties', 'application properties', 'spring profile', 'property source'],
      targets: ['ConfigurationProperties', 'EnableConfigurationProperties', 'PropertySource', 'Environment', 'Profile', 'PropertySourcesPlaceholderConfigurer'],
    },
    {
      concept: 'SPRING_DATA',
      phrases: ['spring data repository', 'jpa repository', 'crud repository', 'entity manager', 'derived query', 'jdbc template'],
      targets: ['JpaRepository', 'CrudRepository', 'PagingAndSortingRepository', 'EntityManager', 'JdbcTemplate', 'SimpleJpaRepository'],
    },
    {
      concept: 'SPRING_TRANSACTIONS',
      phrases: ['transactional', 'transaction manager', 'transaction propagation', 'rollback rules', 'transaction template'],
      targets: ['Transactional', 'PlatformTransactionManager', 'TransactionTemplate', 'TransactionInterceptor', 'TransactionDefinition'],
    },
    {
      concept: 'SPRING_SECURITY',
      phrases: ['spring security', 'security filter chain', 'user details service', 'password encoder', 'authentication manager', 'security context'],
      targets: ['SecurityFilterChain', 'UserDetailsService', 'UserDetails', 'PasswordEncoder', 'AuthenticationManager', 'HttpSecurity', 'SecurityContextHolder'],
    },
    {
      concept: 'SPRING_BOOT',
      phrases: ['spring boot application', 'auto configuration', 'spring application', 'conditional on class', 'conditional on missing bean'],
      targets: ['SpringApplication', 'SpringBootApplication', 'EnableAutoConfiguration', 'ConditionalOnClass', 'ConditionalOnMissingBean', 'AutoConfiguration', 'SpringApplication.run'],
    },
    {
      concept: 'SPRING_AOP',
      phrases: ['aspect', 'pointcut', 'around advice', 'aop proxy', 'join point'],
      targets: ['Aspect', 'Around', 'Pointcut', 'ProceedingJoinPoint', 'JoinPoint', 'ProxyFactory', 'MethodInterceptor'],
    },
    {
      concept: 'SPRING_MVC_INFRASTRUCTURE',
      phrases: ['dispatcher servlet', 'handler mapping', 'handler adapter', 'view resolver', 'handler interceptor', 'controller advice'],
      targets: ['DispatcherServlet', 'HandlerMapping', 'HandlerAdapter', 'ViewResolver', 'HandlerInterceptor', 'ControllerAdvice', 'ExceptionHandler', 'RestControllerAdvice'],
    },
    {
      concept: 'SPRING_EVENTS',
      phrases: ['application event', 'event listener', 'publish event', 'application listener'],
      targets: ['ApplicationEvent', 'EventListener', 'ApplicationEventPublisher', 'ApplicationListener', 'publishEvent'],
    },
    {
      concept: 'SPRING_SCHEDULING',
      phrases: ['scheduled task', 'enable scheduling', 'async method', 'task executor', 'cron expression'],
      targets: ['Scheduled', 'EnableScheduling', 'EnableAsync', 'TaskExecutor', 'ThreadPoolTaskExecutor', 'TaskScheduler', 'CronExpression'],
    },
    {
      concept: 'SPRING_WEBFLUX',
      phrases: ['webflux', 'reactive endpoint', 'mono', 'flux', 'router function', 'web client'],
      targets: ['Mono', 'Flux', 'RouterFunction', 'WebClient', 'ServerResponse', 'HandlerFunction', 'WebFilter'],
    },
    {
      concept: 'SPRING_VALIDATION',
      phrases: ['bean validation', 'valid annotation', 'constraint validator', 'binding result', 'method argument not valid'],
      targets: ['Validated', 'ConstraintValidator', 'BindingResult', 'MethodArgumentNotValidException', 'LocalValidatorFactoryBean'],
    },
  ],
});
