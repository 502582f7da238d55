package io.delayq.outbox.row;

/** What an outbox row asks of Redis; the wire name is the value of the {@code op} column. */
public enum Operation {
    ENQUEUE("enqueue"), CANCEL("cancel"), RESCHEDULE("reschedule");

    private final String wire;

    Operation(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Operation fromWire(String text) {
        for (Operation op : values()) {
            if (op.wire.equals(text)) {
                return op;
            }
        }
        throw new IllegalArgumentException("op: must be enqueue, cancel or reschedule, got '" + text + "'");
    }
}
