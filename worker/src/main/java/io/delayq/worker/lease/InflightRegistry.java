package io.delayq.worker.lease;

import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;

/** The tasks this worker holds a lease on, by id. */
public final class InflightRegistry {
    private final ConcurrentHashMap<String, Leased> byId = new ConcurrentHashMap<>();

    public void add(Leased leased) {
        byId.put(leased.task().id(), leased);
    }

    public void remove(Leased leased) {
        byId.remove(leased.task().id(), leased);
    }

    public Collection<Leased> all() {
        return byId.values();
    }

    public int size() {
        return byId.size();
    }
}
