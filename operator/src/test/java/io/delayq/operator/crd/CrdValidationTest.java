package io.delayq.operator.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generated schema and CEL rules, evaluated as the API server would, against a corpus of
 * resources: every valid one (the examples in crds/examples included) is accepted, every invalid
 * one is rejected with a message that names the offending field.
 */
class CrdValidationTest {
    private static CrdValidator validator;

    @BeforeAll
    static void load() throws IOException {
        validator = new CrdValidator(CrdFiles.committed());
    }

    static Stream<Path> validResources() throws IOException {
        return Stream.concat(list(CrdFiles.examples()), list(CrdFiles.corpus("valid")));
    }

    static Stream<Path> invalidResources() throws IOException {
        return list(CrdFiles.corpus("invalid"));
    }

    private static Stream<Path> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validResources")
    void acceptsValidResource(Path file) throws IOException {
        assertThat(validator.validateCreate(CrdValidator.read(file))).as(file.getFileName().toString()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidResources")
    void rejectsInvalidResourceNamingTheField(Path file) throws IOException {
        List<String> expected = Files.readAllLines(file).stream().filter(l -> l.startsWith("# expect: "))
                .map(l -> l.substring("# expect: ".length()).trim()).toList();
        assertThat(expected).as("the file says which field the error must name").isNotEmpty();

        List<String> errors = validator.validateCreate(CrdValidator.read(file));

        assertThat(errors).as(file.getFileName() + " must be rejected").isNotEmpty();
        assertThat(errors).as(file.getFileName() + ": one error naming " + expected)
                .anySatisfy(error -> assertThat(error).contains(expected));
    }

    @Test
    void shardsMayGrowOnUpdate() throws IOException {
        assertThat(validator.validateUpdate(minimal(4), minimal(16))).as("4 -> 16").isEmpty();
        assertThat(validator.validateUpdate(minimal(16), minimal(64))).as("16 -> 64").isEmpty();
        assertThat(validator.validateUpdate(minimal(6), minimal(16))).as("6 -> 16, not a multiple").isEmpty();
    }

    @Test
    void shardsCannotShrinkOnUpdate() throws IOException {
        assertThat(validator.validateUpdate(minimal(16), minimal(8)))
                .singleElement().asString()
                .contains("spec.shards may grow but not shrink")
                .contains("create a new DelayQueue and drain the old one");
    }

    @Test
    void otherFieldsMayChangeWhileShardsStay() throws IOException {
        JsonNode old = minimal(8);
        ObjectNode changed = (ObjectNode) minimal(8);
        ((ObjectNode) changed.get("spec")).put("shardsPerWorker", 2).put("suspend", true).put("batchSize", 500);

        assertThat(validator.validateUpdate(old, changed)).isEmpty();
    }

    @Test
    void defaultsAreFilledInAsTheApiServerWould() throws IOException {
        JsonNode stored = validator.applyDefaults(minimal(4));

        assertThat(stored.at("/spec/batchSize").asInt()).isEqualTo(500);
        assertThat(stored.at("/spec/pollInterval").asText()).isEqualTo("1s");
        assertThat(stored.at("/spec/replicas").asInt()).isEqualTo(1);
        assertThat(stored.at("/spec/suspend").asBoolean()).isFalse();
        assertThat(stored.at("/spec/retry").isMissingNode()).as("no default for whole objects").isTrue();
    }

    static JsonNode minimal(int shards) throws IOException {
        return CrdValidator.readYaml("""
                apiVersion: delayq.io/v1alpha1
                kind: DelayQueue
                metadata: {name: orders, namespace: shop}
                spec:
                  shards: %d
                  redis: {url: "redis://redis:6379"}
                  worker: {image: "registry.example.com/shop/orders-worker:1.0.0"}
                """.formatted(shards));
    }
}
