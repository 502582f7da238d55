package io.delayq.operator;

import io.delayq.health.ProbeServer;
import io.delayq.operator.cluster.ApiDiscovery;
import io.delayq.operator.cluster.MissingApiException;
import io.delayq.operator.cluster.ServedApis;
import io.delayq.operator.metrics.QueueMetrics;
import io.delayq.operator.reconcile.DelayQueueReconciler;
import io.delayq.operator.redis.QueueReader;
import io.delayq.operator.resharding.MigrationJobs;
import io.delayq.operator.upgrade.UpgradeJobs;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ConfigurationServiceOverrider;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * The running operator: the SDK's {@link Operator} with the DelayQueue reconciler, the Redis
 * queue reader, and the HTTP endpoint for metrics and health. {@link #main} runs it in a pod; tests start
 * it in-process with {@link #start(KubernetesClient, OperatorSettings, boolean)}.
 */
public final class DelayQueueOperator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DelayQueueOperator.class);

    private final Operator operator;
    private final QueueReader reader;
    private final ProbeServer endpoint;
    private final JvmGcMetrics gcMetrics;
    private final LeadershipLoss leadershipLoss;
    private final MigrationJobs migrations;
    private final UpgradeJobs upgrades;
    private volatile boolean started;

    private DelayQueueOperator(KubernetesClient client, OperatorSettings settings, boolean closeClientOnStop,
                               Runnable onLeadershipLost) throws IOException {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        io.delayq.operator.metrics.PrometheusConventions.apply(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        gcMetrics = new JvmGcMetrics();
        gcMetrics.bindTo(registry);

        // Before anything starts: an informer for an API the server lacks stops the whole operator with a stack trace.
        ServedApis apis = ApiDiscovery.discover(client, settings.leaderElection());
        if (apis.missingMessage() != null) {
            throw new MissingApiException(apis.missingMessage());
        }
        if (!apis.disruptionBudgets()) {
            LOG.warn("the API server does not serve {} PodDisruptionBudget (Kubernetes < 1.21): worker Deployments get no "
                    + "disruption budget; each DelayQueue says so in its DisruptionBudget condition", ServedApis.DISRUPTION_BUDGET_API);
        }
        reader = new QueueReader(settings.redisTimeout(), Clock.systemUTC());
        leadershipLoss = new LeadershipLoss(onLeadershipLost);
        operator = new Operator(configuration(client, settings, closeClientOnStop, registry, leadershipLoss));
        migrations = new MigrationJobs(settings.backlogInterval(), Clock.systemUTC());
        upgrades = new UpgradeJobs(settings.backlogInterval(), Clock.systemUTC());
        DelayQueueReconciler reconciler = new DelayQueueReconciler(reader, new QueueMetrics(registry), Clock.systemUTC(),
                settings.backlogInterval(), settings.workerImage(), migrations, upgrades, settings.reshardBatch(), apis);
        operator.register(reconciler, c -> {
            if (settings.watchAllNamespaces()) {
                c.watchingAllNamespaces();
            } else {
                c.settingNamespaces(settings.watchNamespaces());
            }
            // A safety net: even without events or after exhausted retries, look again soon.
            c.withReconciliationMaxInterval(settings.backlogInterval().multipliedBy(6));
        });
        endpoint = new ProbeServer(settings.metricsPort(), "delayq-operator-http", registry::scrape, () -> true, () -> started);
    }

    /** The SDK settings: kept apart so that a test can check them without a cluster. */
    static Consumer<ConfigurationServiceOverrider> configuration(KubernetesClient client, OperatorSettings settings,
                                                                 boolean closeClientOnStop, MeterRegistry registry,
                                                                 LeadershipLoss leadershipLoss) {
        return o -> {
            o.withKubernetesClient(client)
                    // The Fabric8 mock API server cannot do server-side apply; what ships is what is tested.
                    .withUseSSAToPatchPrimaryResource(false)
                    .withSSABasedCreateUpdateMatchForDependentResources(false)
                    .withCloseClientOnStop(closeClientOnStop)
                    .withMetrics(MicrometerMetrics.withoutPerResourceMetrics(registry));
            if (settings.leaderElection()) {
                // Losing the Lease still ends the process and Kubernetes restarts the pod, so two
                // replicas never reconcile at the same time; LeadershipLoss does it instead of the SDK,
                // which would also exit on a deliberate stop.
                LeaderElectionTiming timing = settings.leaderElectionTiming();
                o.withLeaderElectionConfiguration(LeaderElectionConfigurationBuilder
                        .aLeaderElectionConfiguration(settings.leaderLeaseName())
                        .withLeaseNamespace(settings.leaderLeaseNamespace())
                        .withIdentity(settings.leaderIdentity())
                        .withLeaseDuration(timing.leaseDuration())
                        .withRenewDeadline(timing.renewDeadline())
                        .withRetryPeriod(timing.retryPeriod())
                        .withLeaderCallbacks(leadershipLoss.callbacks())
                        .withExitOnStopLeading(false)
                        .build());
            }
        };
    }

    /** Starts the operator; with leader election, losing the Lease while running ends the process. */
    public static DelayQueueOperator start(KubernetesClient client, OperatorSettings settings, boolean closeClientOnStop) {
        return start(client, settings, closeClientOnStop, LeadershipLoss.EXIT);
    }

    /**
     * Starts the operator; with leader election, {@code onLeadershipLost} runs if this replica loses the
     * Lease while running (not on {@link #close()}). Tests pass a recorder instead of ending the JVM.
     */
    public static DelayQueueOperator start(KubernetesClient client, OperatorSettings settings, boolean closeClientOnStop,
                                           Runnable onLeadershipLost) {
        try {
            DelayQueueOperator running = new DelayQueueOperator(client, settings, closeClientOnStop, onLeadershipLost);
            running.operator.start();
            running.started = true;
            LOG.info("delayq operator {} started: namespaces {}, leader election {}, metrics on port {}",
                    OperatorSettings.version(), settings.watchAllNamespaces() ? "all" : settings.watchNamespaces(),
                    settings.leaderElection(), running.metricsPort());
            return running;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the metrics port " + settings.metricsPort(), e);
        }
    }

    public int metricsPort() {
        return endpoint.port();
    }

    @Override
    public void close() {
        started = false;
        leadershipLoss.closing();
        // First, so that the move stops within a batch (and an upgrade within a step); the next leader resumes them from Redis.
        migrations.close();
        upgrades.close();
        try {
            operator.stop();
        } finally {
            endpoint.close();
            reader.close();
            gcMetrics.close();
        }
    }

    public static void main(String[] args) throws InterruptedException {
        OperatorSettings settings = OperatorSettings.fromEnv(System.getenv());
        DelayQueueOperator running;
        try {
            running = start(new KubernetesClientBuilder().build(), settings, true);
        } catch (MissingApiException e) {
            // Nothing to debug in a stack trace: the server is too old or the CRD is not installed.
            LOG.error("delayq operator cannot run here: {}", e.getMessage());
            System.exit(2);
            return;
        } catch (RuntimeException e) {
            // The SDK's and the client's threads are not daemons: without the exit a failed start
            // would leave a process that runs, never gets ready, and says nothing more.
            LOG.error("delayq operator could not start", e);
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            running.close();
            stopped.countDown();
        }, "delayq-operator-shutdown"));
        stopped.await();
    }
}
