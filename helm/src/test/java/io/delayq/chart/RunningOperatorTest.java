package io.delayq.chart;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.client.DelayQueueClient;
import io.delayq.operator.DelayQueueOperator;
import io.delayq.operator.OperatorSettings;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.prometheus.PrometheusBinaries;
import io.delayq.prometheus.PrometheusServer;
import io.delayq.prometheus.Promtool;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The real operator, configured with the environment the chart renders, against Fabric8's mock
 * API server (CRUD mode, with the shipped CRD) and a real Redis: the worker objects it creates are
 * what the chart's monitors select, its whole /metrics passes `promtool check metrics`, and a real
 * Prometheus scraping it as the chart's ServiceMonitor does answers the KEDA trigger's query with
 * the due backlog in Redis.
 */
@EnableKubernetesMockClient(crud = true)
class RunningOperatorTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    static KubernetesClient client;
    static io.fabric8.kubernetes.client.server.mock.KubernetesMockServer server;

    private static final String NAMESPACE = "shop";
    private static final String KEDA_QUERY = "sum(delayq_queue_due_tasks{namespace=\"shop\",delayqueue=\"orders\"})";
    private static final int DUE = 29;

    @TempDir
    Path scratch;

    private DelayQueueOperator operator;
    private DelayQueueClient producer;
    private Manifests chart;

    @BeforeAll
    static void installTheShippedCrd() throws Exception {
        try (var in = Files.newInputStream(RepoPaths.chart().resolve("crds/delayqueues.delayq.io-v1.yml"))) {
            client.apiextensions().v1().customResourceDefinitions().load(in).create();
        }
        io.delayq.operator.testing.MockCluster.serveDiscovery(server, true);
    }

    @BeforeEach
    void startOperatorWithTheChartsEnvironment() {
        chart = HelmChart.of(scratch).render(Map.of("watchNamespaces", List.of(NAMESPACE), "leaderElection", Map.of("enabled", false)));
        Map<String, String> env = new HashMap<>();
        for (JsonNode e : chart.operatorContainer().path("env")) {
            if (e.path("name").asText().startsWith("DELAYQ_") && e.has("value")) {
                env.put(e.path("name").asText(), e.path("value").asText());
            }
        }
        assertThat(env).containsKeys("DELAYQ_WATCH_NAMESPACES", "DELAYQ_LEADER_ELECTION", "DELAYQ_METRICS_PORT", "DELAYQ_WORKER_IMAGE");
        OperatorSettings settings = OperatorSettings.fromEnv(env);
        assertThat(settings.watchNamespaces()).containsExactly(NAMESPACE);
        assertThat(settings.metricsPort()).isEqualTo(8080);
        // A free port instead of 8080 on a shared machine, and a quick backlog check.
        operator = DelayQueueOperator.start(client, settings.withMetricsPort(0).withBacklogInterval(Duration.ofSeconds(1)), false);

        producer = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build();
        for (int i = 0; i < DUE; i++) {
            producer.enqueue(TaskSpec.of("order-" + i).at(Instant.now().minusSeconds(10)));
        }
        producer.enqueue(TaskSpec.of("later").after(Duration.ofHours(1)));
        client.resource(Serialization.unmarshal("""
                apiVersion: delayq.io/v1alpha1
                kind: DelayQueue
                metadata:
                  name: orders
                  namespace: shop
                spec:
                  shards: 4
                  shardsPerWorker: 2
                  redis:
                    url: %s
                """.formatted(redis.url()), DelayQueue.class)).create();
        await("the operator reports the backlog of shop/orders").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> scrape().contains("delayq_queue_due_tasks{delayqueue=\"orders\",namespace=\"shop\""));
    }

    @AfterEach
    void stop() {
        if (operator != null) {
            operator.close();
        }
        if (producer != null) {
            producer.close();
        }
        client.resources(DelayQueue.class).inNamespace(NAMESPACE).delete();
        client.apps().deployments().inNamespace(NAMESPACE).delete();
        client.services().inNamespace(NAMESPACE).delete();
    }

    @Test
    void workerObjectsAreWhatTheChartsMonitorsSelect() {
        Manifests monitors = HelmChart.of(scratch).render(Map.of("watchNamespaces", List.of(NAMESPACE),
                "podMonitor", Map.of("enabled", true), "serviceMonitor", Map.of("enabled", true)));
        JsonNode podMonitor = monitors.get("PodMonitor", "delayq-delayq-operator-workers");
        JsonNode serviceMonitor = monitors.get("ServiceMonitor", "delayq-delayq-operator-workers");

        await().atMost(Duration.ofSeconds(30)).until(() -> client.apps().deployments().inNamespace(NAMESPACE).list().getItems().size() == 2
                && client.services().inNamespace(NAMESPACE).withName("orders-worker-metrics").get() != null);
        List<Deployment> deployments = client.apps().deployments().inNamespace(NAMESPACE).list().getItems();
        for (Deployment d : deployments) {
            Map<String, String> podLabels = d.getSpec().getTemplate().getMetadata().getLabels();
            podMonitor.at("/spec/selector/matchLabels").fields()
                    .forEachRemaining(l -> assertThat(podLabels).containsEntry(l.getKey(), l.getValue().asText()));
            var container = d.getSpec().getTemplate().getSpec().getContainers().get(0);
            assertThat(container.getPorts()).anySatisfy(p -> assertThat(p.getName())
                    .isEqualTo(podMonitor.at("/spec/podMetricsEndpoints/0/port").asText()));
            assertThat(container.getImage()).isEqualTo(chart.operatorEnv("DELAYQ_WORKER_IMAGE"));
            // The chart's relabelings read these pod labels.
            assertThat(podLabels).containsKeys("app.kubernetes.io/instance", "delayq.io/shard-range");
        }
        Service service = client.services().inNamespace(NAMESPACE).withName("orders-worker-metrics").get();
        serviceMonitor.at("/spec/selector/matchLabels").fields()
                .forEachRemaining(l -> assertThat(service.getMetadata().getLabels()).containsEntry(l.getKey(), l.getValue().asText()));
        assertThat(service.getSpec().getPorts()).anySatisfy(p -> assertThat(p.getName())
                .isEqualTo(serviceMonitor.at("/spec/endpoints/0/port").asText()));
    }

    @Test
    void operatorMetricsPassPromtool() throws Exception {
        Promtool promtool = new Promtool(PrometheusBinaries.requirePromtool());
        String text = scrape();

        assertThat(text).contains("delayq_queue_scheduled_tasks{", "delayq_queue_inflight_tasks{", "delayq_queue_dead_tasks{",
                "delayq_queue_oldest_overdue_seconds{", "worker=\"orders-worker-0-1\"", "worker=\"orders-worker-2-3\"",
                "jvm_memory_used_bytes");
        Promtool.Result r = promtool.checkMetrics(text);
        assertThat(r.ok()).as("promtool check metrics:\n%s", r.output()).isTrue();
        assertThat(r.output()).isBlank();
    }

    @Test
    void prometheusAnswersTheKedaQueryFromTheOperator() {
        Path binary = PrometheusBinaries.requirePrometheus();
        // As the chart's ServiceMonitor scrapes the operator: the target's namespace label, honorLabels.
        PrometheusServer.ScrapeJob job = new PrometheusServer.ScrapeJob("operator", List.of("127.0.0.1:" + operator.metricsPort()),
                Map.of("namespace", HelmChart.NAMESPACE), true);
        try (PrometheusServer prometheus = PrometheusServer.start(binary, scratch.resolve("prometheus"), List.of(job), null)) {
            await("Prometheus answers " + KEDA_QUERY + " = " + DUE).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> Double.valueOf(DUE).equals(prometheus.queryValue(KEDA_QUERY)));
            assertThat(producer.stats().due()).isEqualTo(DUE);
            assertThat(prometheus.queryValue("count(delayq_queue_due_tasks{namespace=\"shop\",delayqueue=\"orders\"})")).isEqualTo(2.0);
        }
    }

    private String scrape() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + operator.metricsPort() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }
}
