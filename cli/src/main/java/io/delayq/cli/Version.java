package io.delayq.cli;

import io.delayq.ProductVersion;
import picocli.CommandLine.IVersionProvider;

/** {@code delayq --version}. */
public final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[]{"delayq " + ProductVersion.version()};
    }
}
