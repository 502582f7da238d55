package io.delayq.cli.backfill;

import io.delayq.cli.CliException;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * CSV (RFC 4180) with a header naming the columns {@code id,dueAt,payload} (payload and an optional
 * {@code priority} column may be left out; order is free). Fields may be quoted with {@code "},
 * with {@code ""} for a quote inside; a quoted field may span lines (its row keeps the line number
 * where it starts). An empty payload means no payload.
 */
final class CsvReader implements RowReader {
    private static final List<String> COLUMNS = List.of("id", "dueat", "payload", "priority");

    private final BufferedReader in;
    private final Map<String, Integer> column = new HashMap<>();
    private final int width;
    private long line;

    CsvReader(BufferedReader in) throws IOException {
        this.in = in;
        Record header = read();
        if (header == null) {
            width = 0;
            return;
        }
        List<String> names = header.fields();
        if (!names.isEmpty() && names.get(0).startsWith("\uFEFF")) {
            names.set(0, names.get(0).substring(1));
        }
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i).trim().toLowerCase(Locale.ROOT);
            if (!COLUMNS.contains(n)) {
                throw CliException.usage("header: unknown column '" + names.get(i).trim() + "' on line " + header.line()
                        + "; the columns are id, dueAt, payload (and optional priority)");
            }
            if (column.put(n, i) != null) {
                throw CliException.usage("header: column '" + names.get(i).trim() + "' appears twice on line " + header.line());
            }
        }
        if (!column.containsKey("id") || !column.containsKey("dueat")) {
            throw CliException.usage("header: line " + header.line() + " must name the columns id and dueAt (e.g. id,dueAt,payload), got '"
                    + String.join(",", names) + "'");
        }
        width = names.size();
    }

    private record Record(long line, List<String> fields, String error) {
    }

    @Override
    public Row next() throws IOException {
        Record r;
        do {
            r = read();
            if (r == null) {
                return null;
            }
        } while (r.error() == null && r.fields().size() == 1 && r.fields().get(0).isBlank());
        if (r.error() != null) {
            return Row.rejected(r.line(), r.error());
        }
        if (r.fields().size() != width) {
            return Row.rejected(r.line(), "expected " + width + " fields as in the header, got " + r.fields().size()
                    + " (quote a field that contains a comma)");
        }
        return RowReader.task(r.line(), get(r, "id"), get(r, "dueat"), emptyAsNull(get(r, "payload")), get(r, "priority"));
    }

    private String get(Record r, String name) {
        Integer i = column.get(name);
        return i == null ? null : r.fields().get(i);
    }

    private static String emptyAsNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    /** One record; null at the end of the input. */
    private Record read() throws IOException {
        String text = in.readLine();
        if (text == null) {
            return null;
        }
        long start = ++line;
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean wasQuoted = false;
        int i = 0;
        while (true) {
            if (i >= text.length()) {
                if (!quoted) {
                    break;
                }
                String more = in.readLine();
                if (more == null) {
                    return new Record(start, fields, "unterminated quoted field (a \" is missing)");
                }
                line++;
                field.append('\n');
                text = more;
                i = 0;
                continue;
            }
            char c = text.charAt(i++);
            if (quoted) {
                if (c == '"') {
                    if (i < text.length() && text.charAt(i) == '"') {
                        field.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    field.append(c);
                }
            } else if (c == ',') {
                fields.add(wasQuoted ? field.toString() : field.toString().trim());
                field.setLength(0);
                wasQuoted = false;
            } else if (c == '"' && field.toString().isBlank() && !wasQuoted) {
                field.setLength(0);
                quoted = true;
                wasQuoted = true;
            } else if (wasQuoted && !Character.isWhitespace(c)) {
                return new Record(start, fields, "text after a closing quote in field " + (fields.size() + 1));
            } else if (!wasQuoted) {
                field.append(c);
            }
        }
        fields.add(wasQuoted ? field.toString() : field.toString().trim());
        return new Record(start, fields, null);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
