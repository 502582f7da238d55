package io.delayq.operator.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Does what the API server does with a CRD's schema when a resource is written, so the generated
 * rules can be tested without a cluster (the Fabric8 mock server enforces none of them):
 * structural defaulting, OpenAPI schema validation (json-schema-validator, draft 4 semantics) and
 * the {@code x-kubernetes-validations} CEL rules (cel-java), transition rules included.
 * Each error starts with the path of the offending field.
 */
final class CrdValidator {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML = new YAMLMapper();

    private final JsonNode openApi;
    private final Schema schema;
    private final CelCompiler cel = CelCompilerFactory.standardCelCompilerBuilder()
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addVar("self", SimpleType.DYN)
            .addVar("oldSelf", SimpleType.DYN)
            .setOptions(CelOptions.current().enableHeterogeneousNumericComparisons(true).build())
            .build();
    private final CelRuntime runtime = CelRuntimeFactory.standardCelRuntimeBuilder()
            .setOptions(CelOptions.current().enableHeterogeneousNumericComparisons(true).build())
            .build();

    CrdValidator(Path crd) throws IOException {
        JsonNode root = YAML.readTree(crd.toFile());
        openApi = root.path("spec").path("versions").get(0).path("schema").path("openAPIV3Schema");
        schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4).getSchema(JSON.writeValueAsString(openApi), InputFormat.JSON);
    }

    JsonNode openApi() {
        return openApi;
    }

    static JsonNode read(Path yaml) throws IOException {
        return YAML.readTree(yaml.toFile());
    }

    static JsonNode readYaml(String yaml) throws IOException {
        return YAML.readTree(yaml);
    }

    /** The errors the API server would report on creating the resource; empty when it is accepted. */
    List<String> validateCreate(JsonNode resource) {
        return validate(null, resource);
    }

    /** The errors on replacing {@code old} by {@code updated}, transition rules included. */
    List<String> validateUpdate(JsonNode old, JsonNode updated) {
        return validate(applyDefaults(old), updated);
    }

    /** The resource as the API server would store it: absent fields that have a default get it. */
    JsonNode applyDefaults(JsonNode resource) {
        JsonNode copy = resource.deepCopy();
        defaults(openApi, copy);
        return copy;
    }

    private List<String> validate(JsonNode old, JsonNode resource) {
        JsonNode defaulted = applyDefaults(resource);
        List<String> errors = new ArrayList<>();
        try {
            for (Error e : schema.validate(JSON.writeValueAsString(defaulted), InputFormat.JSON)) {
                String location = dotted(e.getInstanceLocation().toString());
                errors.add((location.isEmpty() ? "<root>" : location) + ": " + e.getMessage());
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        if (errors.isEmpty()) {
            rules(openApi, defaulted, old, "", errors);
        }
        return errors;
    }

    /** "/spec/worker/env/0/name" (or "$.spec...") as Kubernetes writes it: "spec.worker.env[0].name". */
    static String dotted(String location) {
        String path = location.replaceFirst("^\\$", "").replaceFirst("^[./]", "");
        return path.replaceAll("[/.](\\d+)(?=[/.]|$)", "[$1]").replace('/', '.');
    }

    private static void defaults(JsonNode schema, JsonNode value) {
        if (value instanceof ObjectNode object) {
            JsonNode properties = schema.path("properties");
            for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> p = it.next();
                if (!object.has(p.getKey()) && p.getValue().has("default")) {
                    object.set(p.getKey(), p.getValue().get("default").deepCopy());
                }
                if (object.has(p.getKey())) {
                    defaults(p.getValue(), object.get(p.getKey()));
                }
            }
            if (schema.path("additionalProperties").isObject()) {
                object.fields().forEachRemaining(f -> defaults(schema.get("additionalProperties"), f.getValue()));
            }
        } else if (value.isArray() && schema.has("items")) {
            value.forEach(item -> defaults(schema.get("items"), item));
        }
    }

    private void rules(JsonNode schema, JsonNode value, JsonNode old, String path, List<String> errors) {
        for (JsonNode rule : schema.path("x-kubernetes-validations")) {
            String expression = rule.get("rule").asText();
            boolean transition = expression.contains("oldSelf");
            if (transition && (old == null || old.isMissingNode())) {
                continue; // Kubernetes evaluates transition rules only on updates of an existing value
            }
            Map<String, Object> vars = new LinkedHashMap<>();
            vars.put("self", celValue(schema, value, path.isEmpty()));
            if (transition) {
                vars.put("oldSelf", celValue(schema, old, path.isEmpty()));
            }
            String message = rule.path("message").asText("failed rule: " + expression);
            String where = path.isEmpty() ? "<root>" : path;
            try {
                Object result = evaluate(expression, vars);
                if (!Boolean.TRUE.equals(result)) {
                    errors.add(where + ": " + message);
                }
            } catch (CelEvaluationException e) {
                errors.add(where + ": " + message + " (evaluation error: " + e.getMessage() + ")");
            }
        }
        if (value.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> p = it.next();
                if (value.has(p.getKey())) {
                    JsonNode oldChild = old == null ? null : old.path(p.getKey());
                    rules(p.getValue(), value.get(p.getKey()), oldChild, path.isEmpty() ? p.getKey() : path + "." + p.getKey(), errors);
                }
            }
        } else if (value.isArray() && schema.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                // Kubernetes pairs old and new list items only for map-typed lists; we have none.
                rules(schema.get("items"), value.get(i), null, path + "[" + i + "]", errors);
            }
        }
    }

    private Object evaluate(String expression, Map<String, Object> vars) throws CelEvaluationException {
        CelValidationResult compiled = cel.compile(expression);
        if (compiled.hasError()) {
            throw new IllegalStateException("CEL rule does not compile: " + expression + "\n" + compiled.getErrorString());
        }
        try {
            CelRuntime.Program program = runtime.createProgram(compiled.getAst());
            return program.eval(vars);
        } catch (dev.cel.common.CelValidationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The JSON value as CEL sees it under the schema: integers as int, numbers as double. */
    private static Object celValue(JsonNode schema, JsonNode value, boolean root) {
        String type = schema.path("type").asText("");
        if (value.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            value.fields().forEachRemaining(f -> {
                JsonNode childSchema = schema.path("properties").has(f.getKey()) ? schema.path("properties").get(f.getKey())
                        : schema.path("additionalProperties").isObject() ? schema.get("additionalProperties") : JSON.createObjectNode();
                if (root && f.getKey().equals("metadata")) {
                    // Only name and generateName of metadata are visible to rules at the root.
                    Map<String, Object> meta = new LinkedHashMap<>();
                    if (f.getValue().has("name")) {
                        meta.put("name", f.getValue().get("name").asText());
                    }
                    if (f.getValue().has("generateName")) {
                        meta.put("generateName", f.getValue().get("generateName").asText());
                    }
                    map.put("metadata", meta);
                } else {
                    map.put(f.getKey(), celValue(childSchema, f.getValue(), false));
                }
            });
            return map;
        }
        if (value.isArray()) {
            List<Object> list = new ArrayList<>();
            value.forEach(item -> list.add(celValue(schema.path("items"), item, false)));
            return list;
        }
        if (value.isNumber()) {
            return "number".equals(type) ? (Object) value.asDouble() : (Object) value.asLong();
        }
        if (value.isBoolean()) {
            return value.asBoolean();
        }
        if (value.isNull()) {
            return dev.cel.common.values.NullValue.NULL_VALUE;
        }
        return value.asText();
    }
}
