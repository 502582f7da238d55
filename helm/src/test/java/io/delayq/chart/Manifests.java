package io.delayq.chart;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** The objects a `helm template` run rendered, with look-ups by kind and name. */
public record Manifests(List<JsonNode> objects) {

    public List<JsonNode> ofKind(String kind) {
        return objects.stream().filter(o -> kind.equals(o.path("kind").asText())).toList();
    }

    public JsonNode one(String kind) {
        List<JsonNode> found = ofKind(kind);
        if (found.size() != 1) {
            throw new AssertionError("expected one " + kind + ", rendered " + found.size() + " (kinds: " + kinds() + ")");
        }
        return found.get(0);
    }

    public Optional<JsonNode> find(String kind, String name) {
        return ofKind(kind).stream().filter(o -> name.equals(o.at("/metadata/name").asText())).findFirst();
    }

    public JsonNode get(String kind, String name) {
        return find(kind, name).orElseThrow(() -> new AssertionError("no " + kind + " named " + name + " among " + names()));
    }

    public List<String> kinds() {
        return objects.stream().map(o -> o.path("kind").asText()).distinct().sorted().toList();
    }

    public String names() {
        return objects.stream().map(o -> o.path("kind").asText() + "/" + o.at("/metadata/name").asText())
                .collect(Collectors.joining(", "));
    }

    /** The operator Deployment's only container. */
    public JsonNode operatorContainer() {
        List<JsonNode> operators = ofKind("Deployment").stream()
                .filter(d -> "operator".equals(d.at("/metadata/labels/app.kubernetes.io~1component").asText())).toList();
        if (operators.size() != 1) {
            throw new AssertionError("expected one operator Deployment, rendered " + operators.size() + " (" + names() + ")");
        }
        JsonNode containers = operators.get(0).at("/spec/template/spec/containers");
        if (containers.size() != 1) {
            throw new AssertionError("the operator pod should have one container, has " + containers.size());
        }
        return containers.get(0);
    }

    /** The value of an environment variable of the operator container. */
    public String operatorEnv(String name) {
        for (JsonNode e : operatorContainer().path("env")) {
            if (name.equals(e.path("name").asText())) {
                return e.path("value").asText();
            }
        }
        throw new AssertionError("the operator container has no env var " + name);
    }
}
