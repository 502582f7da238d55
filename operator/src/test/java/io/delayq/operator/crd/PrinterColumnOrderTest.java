package io.delayq.operator.crd;

import io.delayq.operator.resource.DelayQueue;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code kubectl get delayqueues} shows the columns in the order DelayQueue declares them (what
 * someone on call wants first), not in the generator's JSON-path order.
 */
class PrinterColumnOrderTest {
    private static final KubernetesSerialization YAML = new KubernetesSerialization();

    private static List<CustomResourceColumnDefinition> columns(String crdYaml) {
        CustomResourceDefinition crd = YAML.unmarshal(crdYaml, CustomResourceDefinition.class);
        return crd.getSpec().getVersions().get(0).getAdditionalPrinterColumns();
    }

    @Test
    void committedCrdListsTheColumnsInTheOrderDelayQueueDeclaresThem() throws IOException {
        List<CustomResourceColumnDefinition> columns = columns(Files.readString(CrdFiles.committed()));

        assertThat(columns).extracting(CustomResourceColumnDefinition::getJsonPath)
                .containsExactlyElementsOf(PrinterColumnOrder.declared(DelayQueue.class));
        assertThat(columns).extracting(CustomResourceColumnDefinition::getName)
                .containsExactly("Ready", "Phase", "Shards", "Workers", "Due", "Reshard", "Next-Fire", "Age");
    }

    @Test
    void declaredOrderIsTheSourceOrderOfTheAnnotations() {
        assertThat(PrinterColumnOrder.declared(DelayQueue.class)).containsExactly(
                ".status.conditions[?(@.type==\"Ready\")].status", ".status.phase", ".spec.shards", ".status.workers",
                ".status.backlog.due", ".status.resharding.progress", ".status.nextScheduleFire", ".metadata.creationTimestamp");
    }

    @Test
    void reordersTheGeneratorsJsonPathOrderAndKeepsEverythingElse() throws IOException {
        String committed = Files.readString(CrdFiles.committed());
        List<String> declared = PrinterColumnOrder.declared(DelayQueue.class);
        // What Fabric8 7.5.2 writes: the columns sorted by JSON path.
        CustomResourceDefinition sorted = YAML.unmarshal(committed, CustomResourceDefinition.class);
        sorted.getSpec().getVersions().get(0).getAdditionalPrinterColumns()
                .sort((a, b) -> String.CASE_INSENSITIVE_ORDER.compare(a.getJsonPath(), b.getJsonPath()));
        String generatorOutput = PrinterColumnOrder.HEADER + YAML.asYaml(sorted).substring(4);
        assertThat(columns(generatorOutput)).extracting(CustomResourceColumnDefinition::getName)
                .containsExactly("Age", "Shards", "Due", "Ready", "Next-Fire", "Phase", "Reshard", "Workers");

        String reordered = PrinterColumnOrder.reorderCrd(generatorOutput, declared);

        assertThat(reordered).as("only the order changes, and the text is the generator's").isEqualTo(committed);
        assertThat(PrinterColumnOrder.reorderCrd(reordered, declared)).as("a second run changes nothing").isEqualTo(reordered);
    }

    @Test
    void columnsTheClassDoesNotDeclareComeLastInTheirOrder() {
        CustomResourceColumnDefinition a = column(".a"), b = column(".b"), extra = column(".x");

        assertThat(PrinterColumnOrder.reorder(List.of(extra, a, b), List.of(".b", ".a"))).containsExactly(b, a, extra);
    }

    @Test
    void aDeclaredColumnMissingFromTheCrdFailsTheBuild() {
        assertThatThrownBy(() -> PrinterColumnOrder.reorder(List.of(column(".a")), List.of(".a", ".spec.gone")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(".spec.gone");
    }

    private static CustomResourceColumnDefinition column(String path) {
        CustomResourceColumnDefinition c = new CustomResourceColumnDefinition();
        c.setJsonPath(path);
        c.setName(path.substring(1));
        c.setType("string");
        return c;
    }
}
