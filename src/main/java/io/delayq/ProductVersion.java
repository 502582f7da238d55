package io.delayq;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The delayq version this build reports (the Maven project version, filtered into a resource at build time). */
public final class ProductVersion {
    private ProductVersion() {
    }

    /** @return the version, or {@code unknown} when the resource is missing (classes run from an unfiltered source tree) */
    public static String version() {
        try (InputStream in = ProductVersion.class.getResourceAsStream("version.properties")) {
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
