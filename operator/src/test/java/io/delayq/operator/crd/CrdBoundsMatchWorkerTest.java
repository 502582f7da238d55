package io.delayq.operator.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.delayq.DurationText;
import io.delayq.operator.resource.DelayQueueSpec;
import io.delayq.operator.resource.DurationRanges;
import io.delayq.operator.resource.Durations;
import io.delayq.settings.Setting;
import io.delayq.settings.WorkerSettings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.delayq.settings.WorkerSettings.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every bound the CRD puts on a spec field that becomes a worker variable is the bound the worker accepts for that
 * variable ({@link WorkerSettings}), read from the committed CRD. A bound wider than the worker's gives workers that
 * refuse to start on a resource the API server accepted; a narrower one refuses what the worker would run, and is
 * allowed only as a least value written down below with its reason. Durations carry no range in the schema (CEL
 * cannot read days or ISO-8601), so for them the schema must hold the worker's syntax and the operator the worker's
 * range ({@link DurationRanges}).
 *
 * <p>Driven by {@link #FIELDS}, which the completeness tests hold to every bounded variable of the contract and to
 * every number and duration of the schema. Free-text variables ({@link Setting.Text}) declare no rule to compare:
 * their readers check them.
 */
class CrdBoundsMatchWorkerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static JsonNode spec;

    /**
     * A spec field (path under {@code spec}) and the worker variable the operator writes from it.
     *
     * @param crdMinimum the CRD's least value where it is deliberately above the worker's (null: the worker's), and
     * @param because    why
     */
    record Field(String path, Setting setting, Double crdMinimum, String because) {
        @Override
        public String toString() {
            return path + " → " + setting.name();
        }
    }

    private static Field field(String path, Setting setting) {
        return new Field(path, setting, null, null);
    }

    /** A field whose least value in the CRD is deliberately above the worker's, and why. */
    private static Field leastInTheCrd(String path, Setting setting, double crdMinimum, String because) {
        return new Field(path, setting, crdMinimum, because);
    }

    private static final String UNSET_BY_OMISSION = "0 is how a worker's variable says 'not set'; a resource says it by leaving the field out";

    static final List<Field> FIELDS = List.of(
            field("shards", SHARDS),
            field("batchSize", BATCH_SIZE),
            field("concurrency", CONCURRENCY),
            field("pollInterval", POLL_INTERVAL),
            field("lease", LEASE),
            field("claimAhead", CLAIM_AHEAD),
            field("handlerTimeout", HANDLER_TIMEOUT),
            field("shutdownGrace", SHUTDOWN_GRACE),
            field("retry.maxAttempts", RETRY_MAX_ATTEMPTS),
            field("retry.initialBackoff", RETRY_BACKOFF_INITIAL),
            field("retry.maxBackoff", RETRY_BACKOFF_MAX),
            field("retry.multiplier", RETRY_BACKOFF_MULTIPLIER),
            field("retry.jitter", RETRY_JITTER),
            leastInTheCrd("deadLetter.maxCount", DEAD_LETTER_MAX_COUNT, 1,
                    "a DelayQueue's dead-letter set is always bounded by count; 0 (unbounded) is for a worker run by hand"),
            field("deadLetter.maxAge", DEAD_LETTER_MAX_AGE),
            field("results.keep", RESULTS_KEEP),
            field("results.maxPerShard", RESULTS_MAX_PER_SHARD),
            field("rateLimit.perSecond", RATE_LIMIT),
            leastInTheCrd("rateLimit.burst", RATE_BURST, 1, UNSET_BY_OMISSION),
            field("rateLimit.perGroupPerSecond", GROUP_RATE_LIMIT),
            leastInTheCrd("rateLimit.perGroupBurst", GROUP_RATE_BURST, 1, UNSET_BY_OMISSION),
            field("delivery.webhook.timeout", WEBHOOK_TIMEOUT),
            leastInTheCrd("delivery.stream.maxLength", STREAM_MAXLEN, 1, UNSET_BY_OMISSION),
            field("delivery.kafka.timeout", KAFKA_TIMEOUT),
            field("schedulePlanner.interval", SCHEDULE_INTERVAL),
            field("schedulePlanner.horizon", SCHEDULE_HORIZON),
            field("schedulePlanner.misfireThreshold", SCHEDULE_MISFIRE_THRESHOLD),
            field("outbox.batchSize", OUTBOX_BATCH_SIZE),
            field("outbox.pollInterval", OUTBOX_POLL_INTERVAL),
            field("outbox.retryDelay", OUTBOX_RETRY_DELAY),
            field("outbox.backstop.interval", OUTBOX_BACKSTOP_INTERVAL),
            leastInTheCrd("groups.maxRunning", GROUP_MAX_RUNNING, 1, UNSET_BY_OMISSION));

    /** Bounded variables no spec field becomes: the operator chooses them. */
    private static final Map<Setting, String> CHOSEN_BY_THE_OPERATOR = Map.of(
            SHARD_FROM, "the first shard of the Deployment's range (ShardPlan)",
            SHARD_TO, "the last shard of the Deployment's range (ShardPlan)",
            WorkerSettings.HTTP_PORT, "the port of the metrics Service and the probes");

    /** Bounded fields of the schema (by path prefix) that become no worker variable. */
    private static final Map<String, String> NOT_WORKER_VARIABLES = Map.of(
            "replicas", "the Deployments' replica count",
            "shardsPerWorker", "the operator's shard plan",
            "protocol", "the operator's upgrade job (UpgradePlan), which writes the queue's meta in Redis",
            "autoscaling", "the operator's autoscaler",
            "schedules", "written into Redis as recurring tasks, not into the workers' environment",
            "worker", "the pod's own settings (Kubernetes types)",
            "outbox.relay", "where the relay runs: the relay Deployment's replica count and resources",
            "groups.weights", "entries of the text variable DELAYQ_GROUP_WEIGHTS; GroupWeightSpec's bounds are GroupWeights' own constants",
            "groups.maxRunningOverrides", "entries of the text variable DELAYQ_GROUP_MAX_RUNNING_OVERRIDES; GroupCapSpec's bounds are GroupCaps' own constants");

    @BeforeAll
    static void load() throws IOException {
        spec = new CrdValidator(CrdFiles.committed()).openApi().at("/properties/spec");
    }

    static Stream<Field> fields() {
        return FIELDS.stream();
    }

    private static JsonNode schemaOf(String path) {
        JsonNode node = spec;
        for (String part : path.split("\\.")) {
            node = node.path("properties").path(part);
        }
        return node;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void theSchemaBoundIsTheWorkersBound(Field field) {
        JsonNode schema = schemaOf(field.path());
        assertThat(schema.isMissingNode()).as("spec.%s is in the CRD", field.path()).isFalse();
        if (field.setting() instanceof Setting.Whole w) {
            assertThat(schema.path("type").asText()).as("spec.%s type", field.path()).isEqualTo("integer");
            compare(field, bound(schema, "minimum", Long.MIN_VALUE), bound(schema, "maximum", Long.MAX_VALUE), w.min(), w.max());
        } else if (field.setting() instanceof Setting.Decimal d) {
            assertThat(schema.path("type").asText()).as("spec.%s type", field.path()).isEqualTo("number");
            compare(field, bound(schema, "minimum", Double.NEGATIVE_INFINITY), bound(schema, "maximum", Double.POSITIVE_INFINITY),
                    d.min(), d.max());
        } else if (field.setting() instanceof Setting.Span span) {
            assertThat(schema.path("pattern").asText()).as("spec.%s is written in the worker's duration syntax", field.path())
                    .isEqualTo(Durations.PATTERN);
            assertThat(schema.has("minimum") || schema.has("maximum") || schema.has("x-kubernetes-validations"))
                    .as("spec.%s: a duration's range is the operator's check, not the schema's", field.path()).isFalse();
            assertThat(DurationRanges.FIELDS).as("the operator checks spec.%s against %s", field.path(), span.name())
                    .anyMatch(f -> f.path().equals("spec." + field.path()) && f.setting() == span);
            assertTheOperatorAcceptsExactlyTheRange(field.path(), span);
        } else {
            throw new AssertionError(field.setting().name() + " is free text: it has no bound to compare");
        }
    }

    private static double bound(JsonNode schema, String name, double absent) {
        return schema.has(name) ? schema.get(name).asDouble() : absent;
    }

    private static void compare(Field field, double crdMin, double crdMax, double workerMin, double workerMax) {
        String what = "spec." + field.path() + " [" + crdMin + ", " + crdMax + "] against " + field.setting().name() + " ["
                + workerMin + ", " + workerMax + "]";
        assertThat(crdMin >= workerMin && crdMax <= workerMax)
                .as("%s: the CRD accepts values the worker refuses", what).isTrue();
        assertThat(crdMax).as("%s: the CRD refuses values the worker accepts", what).isEqualTo(workerMax);
        if (field.crdMinimum() == null) {
            assertThat(crdMin).as("%s: the CRD refuses values the worker accepts; widen it, or write down why its least value is higher",
                    what).isEqualTo(workerMin);
        } else {
            assertThat(field.crdMinimum()).as("%s: written down as least value (%s)", what, field.because()).isGreaterThan(workerMin);
            assertThat(crdMin).as("%s: the least value written down (%s)", what, field.because()).isEqualTo(field.crdMinimum());
        }
    }

    /** The bounds pass the operator's check, a millisecond outside either fails it naming the field, the range and the variable. */
    private static void assertTheOperatorAcceptsExactlyTheRange(String path, Setting.Span span) {
        Duration ms = Duration.ofMillis(1);
        assertThatCode(() -> DurationRanges.check(specWith(path, span.min()))).as("spec.%s = its least value", path).doesNotThrowAnyException();
        assertThatCode(() -> DurationRanges.check(specWith(path, span.max()))).as("spec.%s = its greatest value", path).doesNotThrowAnyException();
        List<Duration> outside = new ArrayList<>(List.of(span.max().plus(ms)));
        if (!span.min().isZero()) {
            outside.add(span.min().minus(ms));
        }
        for (Duration d : outside) {
            assertThatThrownBy(() -> DurationRanges.check(specWith(path, d))).as("spec.%s = %s", path, DurationText.format(d))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("spec." + path)
                    .hasMessageContaining(DurationText.format(span.min()) + " and " + DurationText.format(span.max()))
                    .hasMessageContaining(span.name());
        }
    }

    /** A spec of defaults with {@code path} set to {@code value}, as the API server would hand it to the operator. */
    private static DelayQueueSpec specWith(String path, Duration value) {
        ObjectNode root = JSON.valueToTree(new DelayQueueSpec());
        String[] parts = path.split("\\.");
        ObjectNode node = root;
        for (int i = 0; i < parts.length - 1; i++) {
            node = node.has(parts[i]) && node.get(parts[i]).isObject() ? (ObjectNode) node.get(parts[i]) : node.putObject(parts[i]);
        }
        node.put(parts[parts.length - 1], DurationText.format(value));
        try {
            return JSON.treeToValue(root, DelayQueueSpec.class);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void everyBoundedVariableOfTheContractHasItsSpecFieldOrIsTheOperatorsChoice() {
        Set<String> bounded = WorkerSettings.ALL.stream().filter(s -> !(s instanceof Setting.Text)).map(Setting::name)
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> covered = new TreeSet<>();
        FIELDS.forEach(f -> covered.add(f.setting().name()));
        CHOSEN_BY_THE_OPERATOR.keySet().forEach(s -> covered.add(s.name()));

        assertThat(covered).as("bounded variables of the contract: each has a spec field in FIELDS or is chosen by the operator")
                .isEqualTo(bounded);
        assertThat(FIELDS.stream().map(f -> f.setting().name()).distinct().count()).as("one spec field per variable").isEqualTo(FIELDS.size());
    }

    @Test
    void everyBoundedFieldOfTheSchemaIsComparedOrBecomesNoWorkerVariable() {
        List<String> bounded = new ArrayList<>();
        collectBounded(spec, "", bounded);
        Set<String> compared = FIELDS.stream().map(Field::path).collect(Collectors.toSet());

        assertThat(bounded).as("numbers and durations of the schema").isNotEmpty();
        for (String path : bounded) {
            boolean elsewhere = NOT_WORKER_VARIABLES.keySet().stream().anyMatch(p -> path.equals(p) || path.startsWith(p + ".") || path.startsWith(p + "[]"));
            assertThat(compared.contains(path) || elsewhere)
                    .as("spec.%s has a bound: map it to its worker variable in FIELDS, or say in NOT_WORKER_VARIABLES why it becomes none", path)
                    .isTrue();
        }
        assertThat(bounded).as("every field of FIELDS is a bounded field of the schema").containsAll(compared);
    }

    /** Paths of the numbers and the durations under {@code schema}; array items as {@code name[]}. */
    private static void collectBounded(JsonNode schema, String path, List<String> into) {
        String type = schema.path("type").asText();
        if (type.equals("integer") || type.equals("number") || Durations.PATTERN.equals(schema.path("pattern").asText())) {
            into.add(path);
        }
        schema.path("properties").fields().forEachRemaining(p -> collectBounded(p.getValue(), path.isEmpty() ? p.getKey() : path + "." + p.getKey(), into));
        if (schema.has("items")) {
            collectBounded(schema.get("items"), path + "[]", into);
        }
    }
}
