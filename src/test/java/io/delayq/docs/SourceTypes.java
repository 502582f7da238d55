package io.delayq.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Java types declared anywhere in the source tree (top-level and nested, main and test), each with the files
 * that declare one of that simple name, so that a doc's "ClassName" or "ClassName.member" can be looked up.
 */
final class SourceTypes {
    private static final Pattern DECLARATION = Pattern.compile(
            "^\\s*(?:(?:public|protected|private|static|final|abstract|sealed|non-sealed|strictfp)\\s+)*"
                    + "(?:class|record|interface|enum|@interface)\\s+([A-Z]\\w*)", Pattern.MULTILINE);

    private final Map<String, List<Path>> declaredIn = new HashMap<>();
    private final Map<Path, String> text = new HashMap<>();

    static SourceTypes of(RepoTree repo) {
        SourceTypes types = new SourceTypes();
        for (Path file : repo.javaSources()) {
            String source = read(file);
            types.text.put(file, source);
            Matcher m = DECLARATION.matcher(source);
            while (m.find()) {
                types.declaredIn.computeIfAbsent(m.group(1), n -> new ArrayList<>()).add(file);
            }
        }
        return types;
    }

    boolean declares(String simpleName) {
        return declaredIn.containsKey(simpleName);
    }

    List<Path> filesDeclaring(String simpleName) {
        return declaredIn.getOrDefault(simpleName, List.of());
    }

    /** Whether a file declaring {@code type} names {@code member} (a method, field, constant or nested type) at all. */
    boolean mentions(String type, String member) {
        Pattern word = Pattern.compile("\\b" + Pattern.quote(member) + "\\b");
        return filesDeclaring(type).stream().anyMatch(f -> word.matcher(text.get(f)).find());
    }

    int size() {
        return declaredIn.size();
    }

    private static String read(Path file) {
        try {
            // a stray non-UTF-8 byte in some source must not stop the lookup: it becomes U+FFFD
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
