package io.delayq.cli;

import picocli.CommandLine.IVersionProvider;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** {@code delayq --version}: the Maven project version, filtered into a resource at build time. */
public final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[]{"delayq " + version()};
    }

    public static String version() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
