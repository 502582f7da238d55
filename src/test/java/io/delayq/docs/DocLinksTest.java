package io.delayq.docs;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of README.md, docs/*.md and the modules' READMEs leads somewhere: the file or folder exists
 * (a source file that was moved or split leaves its links dangling), and an anchor into a markdown page names one
 * of its headings. The failure lists every broken link at once, with the page and line it is on.
 */
class DocLinksTest {
    private final RepoTree repo = RepoTree.find();
    private final Map<Path, MarkdownPage> pages = new HashMap<>();

    @Test
    void everyRelativeLinkOfTheDocsLeadsToAFileThatExists() {
        List<String> broken = new ArrayList<>();
        List<Path> checked = repo.markdownPages();
        for (Path file : checked) {
            MarkdownPage page = page(file);
            for (MarkdownPage.At link : page.links()) {
                String problem = problem(page, link.text());
                if (problem != null) {
                    broken.add(repo.show(file) + ":" + link.line() + ": " + link.text() + " — " + problem);
                }
            }
        }
        assertThat(checked).as("markdown pages found under %s", repo.root())
                .extracting(repo::show).contains("README.md", "docs/architecture.md");
        assertThat(broken)
                .withFailMessage("%d link(s) in the docs lead nowhere (a file moved, was renamed or split? point the link at "
                        + "where it lives now):%n  %s", broken.size(), String.join("\n  ", broken))
                .isEmpty();
    }

    /** Null when the link leads somewhere; else what is wrong with it. Links with a scheme (https:, mailto:) are not checked. */
    private String problem(MarkdownPage from, String target) {
        if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
            return null;
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? "" : target.substring(hash + 1);
        int query = path.indexOf('?');
        if (query >= 0) {
            path = path.substring(0, query);
        }
        Path resolved = path.isEmpty() ? from.file() : from.file().getParent().resolve(path).normalize();
        if (!resolved.startsWith(repo.root())) {
            return "points outside the repository";
        }
        if (!Files.exists(resolved)) {
            return "no such file or folder: " + repo.show(resolved);
        }
        if (!anchor.isEmpty() && resolved.toString().endsWith(".md") && !page(resolved).anchors().contains(anchor)) {
            return "no heading of " + repo.show(resolved) + " makes the anchor #" + anchor;
        }
        return null;
    }

    private MarkdownPage page(Path file) {
        return pages.computeIfAbsent(file, MarkdownPage::read);
    }
}
