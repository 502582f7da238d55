package io.delayq.kube;

import java.nio.file.Path;

/** Files of this repository the suite installs: the CRD as generated, the chart, the examples. */
final class Repo {
    static final Path ROOT = Path.of(System.getProperty("delayq.repo.root", "..")).toAbsolutePath().normalize();
    static final Path CRD = ROOT.resolve("crds/delayqueues.delayq.io-v1.yml");
    static final Path EXAMPLES = ROOT.resolve("crds/examples");
    static final Path CHART = ROOT.resolve("helm/delayq-operator");
    static final Path QUICKSTART = ROOT.resolve("examples/kubernetes/quickstart.yaml");

    private Repo() {
    }
}
