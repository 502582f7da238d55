package io.delayq.cli.text;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain text table: left-aligned first column, right-aligned numbers, two spaces between columns. */
public final class Table {
    private final List<String> header;
    private final boolean[] rightAligned;
    private final List<List<String>> rows = new ArrayList<>();

    public Table(List<String> header, boolean... rightAligned) {
        this.header = header;
        this.rightAligned = rightAligned;
    }

    public Table row(Object... cells) {
        List<String> r = new ArrayList<>(cells.length);
        for (Object c : cells) {
            r.add(c == null ? "" : c.toString());
        }
        rows.add(r);
        return this;
    }

    public void print(PrintWriter out) {
        int[] width = new int[header.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = header.get(i).length();
            for (List<String> r : rows) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        line(out, header, width);
        for (List<String> r : rows) {
            line(out, r, width);
        }
    }

    private void line(PrintWriter out, List<String> cells, int[] width) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                b.append("  ");
            }
            boolean right = i < rightAligned.length && rightAligned[i];
            String c = cells.get(i);
            String pad = " ".repeat(width[i] - c.length());
            b.append(right ? pad + c : (i == cells.size() - 1 ? c : c + pad));
        }
        out.println(b);
    }
}
