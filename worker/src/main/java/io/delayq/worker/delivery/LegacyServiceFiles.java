package io.delayq.worker.delivery;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Service files under the handler API's 0.1 name ({@code io.delayq.worker.delivery.TaskHandler}): ServiceLoader
 * ignores them, so a handler jar built for 0.1 looks absent. Naming them turns "no handler found" into the fix.
 */
final class LegacyServiceFiles {
    static final String OLD = "META-INF/services/io.delayq.worker.delivery.TaskHandler";
    static final String NEW = "io.delayq.handler.TaskHandler";

    private LegacyServiceFiles() {
    }

    /** "; found META-INF/services/io.delayq.worker.delivery.TaskHandler in a.jar: rename it ...", or "" when there is none. */
    static String hint(ClassLoader loader) {
        List<String> where = new ArrayList<>();
        try {
            for (URL url : Collections.list(loader.getResources(OLD))) {
                where.add(container(url));
            }
        } catch (IOException e) {
            return "";
        }
        if (where.isEmpty()) {
            return "";
        }
        return "; found " + OLD + " in " + String.join(", ", where) + ": rename it to " + NEW
                + " (the handler API moved to package io.delayq.handler; see docs/handlers.md, Moving from 0.1)";
    }

    /** The jar (its file name) or folder holding a resource. */
    private static String container(URL url) {
        String text = url.toString();
        if (text.startsWith("jar:file:") && text.contains("!/")) {
            return Path.of(text.substring("jar:file:".length(), text.indexOf("!/"))).getFileName().toString();
        }
        return text.endsWith(OLD) ? text.substring(0, text.length() - OLD.length()) : text;
    }
}
