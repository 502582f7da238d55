package io.delayq.cli.text;

/**
 * Text from Redis made safe to print on a terminal. Ids, payloads and errors are written by
 * applications (or by anyone who can reach Redis): an ESC in an id could move the cursor, recolour or
 * clear the screen, retitle the window, or hide the lines around it. Control characters (C0, DEL, C1)
 * and invisible format characters (bidi overrides, zero-width) are printed as backslash-x and
 * backslash-u escapes, so that what is shown is what is stored, and nothing else reaches the terminal.
 */
public final class TerminalText {
    private TerminalText() {
    }

    /** C0, DEL, C1, invisible format characters (bidi overrides, zero-width) and line/paragraph separators. */
    public static boolean unsafe(int cp) {
        int type = Character.getType(cp);
        return Character.isISOControl(cp) || type == Character.FORMAT || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
    }

    public static String safe(String s) {
        if (s == null) {
            return null;
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            int n = Character.charCount(cp);
            if (unsafe(cp) || Character.getType(cp) == Character.SURROGATE) {
                if (b == null) {
                    b = new StringBuilder(s.length() + 8).append(s, 0, i);
                }
                b.append(cp <= 0xff ? String.format("\\x%02x", cp) : String.format("\\u%04x", cp));
            } else if (b != null) {
                b.appendCodePoint(cp);
            }
            i += n;
        }
        return b == null ? s : b.toString();
    }
}
