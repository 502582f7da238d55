package io.delayq.docs;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/architecture.md walks the code class by class; this keeps the walk true to the tree. Every class it names
 * must be declared somewhere in the source tree (any module, main or test), and a member it names with it
 * ({@code ClaimLoop.askFor}, {@code QueueProtocol.MAX_PER_CALL}) must appear in a file declaring that class. The
 * names are taken from the prose's code spans that start with a capitalised name ({@code `Settler.settle`}) and
 * from the CamelCase words of its diagrams ({@code MarkerWatcher}, {@code WorkerConfig.fromEnv}). The links of the
 * walk to the source files are {@link DocLinksTest}'s.
 */
class ArchitectureWalkTest {
    private static final String PAGE = "docs/architecture.md";
    /** In a code span: a capitalised name, not an all-capitals one (commands, keys, variables), and maybe a member. */
    private static final Pattern SPAN_NAME = Pattern.compile("^([A-Z][a-z]\\w*)(?:\\.([A-Za-z_]\\w*))?");
    /** In a diagram: a CamelCase word of two humps or more (one-hump words there are plain English), and maybe a member. */
    private static final Pattern DIAGRAM_NAME = Pattern.compile("\\b([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)(?:\\.([A-Za-z_]\\w*))?");
    /** Names the page writes as code that are not Java types: the DelayQueue status condition and the reason it mentions. */
    private static final Set<String> NOT_JAVA = Set.of("DisruptionBudget", "InvalidSpec");
    /** The JDK packages whose classes the walk may name (ServiceLoader finds the handler). */
    private static final List<String> JDK_PACKAGES = List.of("java.lang.", "java.util.", "java.util.concurrent.", "java.time.",
            "java.net.http.");

    @Test
    void everyClassTheArchitectureWalkNamesIsInTheSourceTree() {
        RepoTree repo = RepoTree.find();
        SourceTypes types = SourceTypes.of(repo);
        MarkdownPage page = MarkdownPage.read(repo.root().resolve(PAGE));
        Set<String> problems = new LinkedHashSet<>();
        List<Named> named = new ArrayList<>();
        for (MarkdownPage.At span : page.codeSpans()) {
            Matcher m = SPAN_NAME.matcher(span.text());
            if (m.find()) {
                named.add(new Named(span.line(), span.text(), m.group(1), m.group(2)));
            }
        }
        for (MarkdownPage.At line : page.fencedLines()) {
            Matcher m = DIAGRAM_NAME.matcher(line.text());
            while (m.find()) {
                named.add(new Named(line.line(), m.group(), m.group(1), m.group(2)));
            }
        }
        for (Named n : named) {
            String where = PAGE + ":" + n.line() + ": `" + n.as() + "` — ";
            if (types.declares(n.type())) {
                if (n.member() != null && !types.mentions(n.type(), n.member())) {
                    problems.add(where + n.type() + " (" + types.filesDeclaring(n.type()).stream().map(repo::show).toList()
                            + ") names no " + n.member());
                }
            } else if (!NOT_JAVA.contains(n.type()) && !isJdkClass(n.type())) {
                problems.add(where + "no class, record, interface or enum " + n.type() + " is declared in the source tree");
            }
        }
        assertThat(named).as("class names found in %s", PAGE).hasSizeGreaterThan(50);
        assertThat(types.size()).as("types declared in the source tree").isGreaterThan(100);
        assertThat(problems)
                .withFailMessage("%d name(s) in %s are not in the source tree (moved, renamed or split? update the walk):%n  %s",
                        problems.size(), PAGE, String.join("\n  ", problems))
                .isEmpty();
    }

    private static boolean isJdkClass(String simpleName) {
        for (String pkg : JDK_PACKAGES) {
            try {
                Class.forName(pkg + simpleName, false, ArchitectureWalkTest.class.getClassLoader());
                return true;
            } catch (ClassNotFoundException e) {
                // not in this package
            }
        }
        return false;
    }

    /** A name the page uses: where, as written, and the type and member it stands for (member null when none). */
    private record Named(int line, String as, String type, String member) {
    }
}
