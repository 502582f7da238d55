package io.delayq.bench;

/** Every system gets the same ids: "t" and nine digits, so memory figures compare like for like. */
final class TaskIds {
    static final int ID_BYTES = 10;

    private TaskIds() {
    }

    static String id(int index) {
        String digits = Integer.toString(index);
        return "t" + "000000000".substring(digits.length()) + digits;
    }

    static int index(String id) {
        return Integer.parseInt(id, 1, ID_BYTES, 10);
    }

    /** A payload of exactly {@code bytes} ASCII bytes. */
    static String payload(int bytes) {
        return "x".repeat(bytes);
    }
}
